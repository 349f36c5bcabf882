/**
 * The legal pack: legal_intake's agent and the phrases the router learns it from (Legal Intake:
 * lawyers, contracts, disputes, notary services). It has no tools yet: offline, the front desk
 * answers for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { LEGAL_INTENTS } from "./intents.ts";

/** The legal pack. */
export const LEGAL_PACK: Pack = agentOnlyPack("legal", {
  id: "legal_intake",
  intents: LEGAL_INTENTS,
});
