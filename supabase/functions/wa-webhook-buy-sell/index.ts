/**
 * Entry point of the `wa-webhook-buy-sell` edge function: mounts the
 * WhatsApp channel (`shared/channels/whatsapp/`, wired to the agent by
 * `shared/platform/whatsapp.ts`, which lists the environment it reads).
 *
 * @module
 */
import { openWhatsAppChannelFromEnv } from "@shared/platform/whatsapp.ts";

const channel = await openWhatsAppChannelFromEnv();
channel.start();

Deno.serve(channel.app.fetch);
