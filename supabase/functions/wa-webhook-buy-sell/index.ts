/**
 * Entry point of the `wa-webhook-buy-sell` edge function: buy & sell's own
 * home, serving the pack's staff routes (`GET /inquiries`: recent requests
 * and every vendor's answer). Vendors' WhatsApp answers ("YES 1500 2",
 * "OYA") reach buy & sell through the `wa-webhook` function, which Meta calls
 * for every number and tenant (docs/architecture.md says why).
 *
 * @module
 */
import { openPackFunctionFromEnv } from "@shared/platform/pack_function.ts";

const app = await openPackFunctionFromEnv({ name: "wa-webhook-buy-sell", pack: "buy_and_sell" });

Deno.serve(app.fetch);
