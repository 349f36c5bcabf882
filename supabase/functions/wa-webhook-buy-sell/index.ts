/**
 * Entry point of the `wa-webhook-buy-sell` edge function.
 *
 * Environment: the runtime's (see shared/runtime/env.ts) plus
 * `WHATSAPP_APP_SECRET`, `WHATSAPP_VERIFY_TOKEN`, `WHATSAPP_TOKEN`,
 * `WHATSAPP_PHONE_NUMBER_ID` and `EASYMO_WHATSAPP_ORG` (default `easymo`).
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/runtime/env.ts";
import { createWhatsAppChannel } from "./channel.ts";

function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

const runtime = await openRuntimeFromEnv();
// Supabase's runtime keeps a request's background work alive only through waitUntil.
const edge = (globalThis as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime;
const channel = createWhatsAppChannel(runtime, {
  appSecret: required("WHATSAPP_APP_SECRET"),
  verifyToken: required("WHATSAPP_VERIFY_TOKEN"),
  org: Deno.env.get("EASYMO_WHATSAPP_ORG") ?? "easymo",
  graph: {
    token: required("WHATSAPP_TOKEN"),
    phoneNumberId: required("WHATSAPP_PHONE_NUMBER_ID"),
  },
  background: edge ? (task) => edge.waitUntil(task()) : undefined,
});
channel.start();

Deno.serve(channel.app.fetch);
