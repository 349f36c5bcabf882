/**
 * Entry point of the `payments` edge function: settlement callbacks,
 * forwarded MoMo SMS and the expiry sweep (see app.ts and docs/payments.md).
 *
 * @module
 */
import { requireEnv } from "@shared/platform/env.ts";
import { openRuntimeFromEnv } from "@shared/platform/env.ts";
import { createPaymentsApp } from "./app.ts";

const runtime = await openRuntimeFromEnv();

Deno.serve(
  createPaymentsApp({
    ...runtime,
    callbackSecret: requireEnv("MOMO_CALLBACK_SECRET"),
    smsSecret: requireEnv("SMS_FORWARDER_SECRET"),
    smsOrg: Deno.env.get("PAYMENTS_SMS_ORG") ?? "easymo",
  }).fetch,
);
