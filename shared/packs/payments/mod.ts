/**
 * The payments pack: payments's agent and the phrases the router learns it from (Payments: MoMo
 * payments, failed payments, receipts, order and payment status). It has no tools yet: offline, the
 * front desk answers for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { PAYMENTS_INTENTS } from "./intents.ts";

/** The payments pack. */
export const PAYMENTS_PACK: Pack = agentOnlyPack("payments", {
  id: "payments",
  intents: PAYMENTS_INTENTS,
});
