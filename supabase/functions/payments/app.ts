/**
 * `payments`: where mobile-money settlement evidence arrives — providers'
 * signed callbacks, SMS from registered forwarders, the expiry sweep for a
 * scheduler, and the operator's forwarder console. All of it is the
 * payments pack's endpoints (`shared/packs/payments/endpoints.ts`,
 * `forwarder_endpoints.ts`), served through the composition root: this
 * function names its pack by id and imports none (docs/payments.md).
 *
 * @module
 */
import type { Hono } from "hono";
import { createPackFunction } from "@shared/platform/pack_function.ts";
import type { Runtime } from "@shared/platform/env.ts";

/** The function's name, as Supabase serves it: paths start with `/payments`. */
export const PAYMENTS_FUNCTION = "payments";

/** Builds the payments function on a runtime. */
export function createPaymentsApp(runtime: Runtime): Hono {
  return createPackFunction(runtime, { name: PAYMENTS_FUNCTION, pack: "payments" });
}
