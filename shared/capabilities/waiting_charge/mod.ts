/**
 * The waiting charge, a capability the ordering conversation and the ride
 * flow share: when `momo_charge` answers CONFLICT with the caller's own
 * charge still waiting, a flow shows that charge's code again instead of an
 * error (`waitingCharge`), so tapping "Pay" twice never leaves the payer
 * without a code, nor with two charges. A charge that pays no order and no
 * ride (an insurance premium, a consultation fee) is the open work its flow
 * leaves behind (`findOpenCharge`, `cancelOpenCharge`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waitingCharge } from "@shared/capabilities/waiting_charge/mod.ts";
 *
 * assert.equal(waitingCharge({ ok: false, error: { code: "CONFLICT", msg: "paid" } }), null);
 * ```
 *
 * @module
 */
export { type ChargeCode, waitingCharge } from "./waiting_charge.ts";
export {
  cancelOpenCharge,
  type ChargeCancelled,
  findOpenCharge,
  type OpenCharge,
  type OpenChargeQuery,
} from "./charge_pending.ts";
