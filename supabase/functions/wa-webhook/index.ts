/**
 * Entry point of the `wa-webhook` edge function: the WhatsApp
 * webhook. It stores what Meta delivers and wakes the `agent` function,
 * which answers (`shared/platform/wa_webhook.ts` lists the environment it
 * reads).
 *
 * @module
 */
import { openWebhookFunctionFromEnv } from "@shared/platform/wa_webhook.ts";

const webhook = await openWebhookFunctionFromEnv();

Deno.serve(webhook.fetch);
