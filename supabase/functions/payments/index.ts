/**
 * Entry point of the `payments` edge function: settlement callbacks,
 * forwarded MoMo SMS, the expiry sweep and the forwarder console (see
 * app.ts and docs/payments.md). Settings: the runtime's and
 * `MOMO_CALLBACK_SECRET` (docs/environment.md).
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/platform/env.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { createPaymentsApp } from "./app.ts";

// Receipts and certificates may follow a settlement.
const runtime = await openRuntimeFromEnv({ provide: [{ key: PDF_RENDERER, value: renderPdf }] });

Deno.serve(createPaymentsApp(runtime).fetch);
