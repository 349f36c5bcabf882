/**
 * The insurance pack: insurance's agent and the phrases the router learns it from (Insurance: motor
 * insurance, carte jaune, travel and health cover, claims). It has no tools yet: offline, the front
 * desk answers for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { INSURANCE_INTENTS } from "./intents.ts";

/** The insurance pack. */
export const INSURANCE_PACK: Pack = agentOnlyPack("insurance", {
  id: "insurance",
  intents: INSURANCE_INTENTS,
});
