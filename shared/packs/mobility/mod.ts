/**
 * The mobility pack: mobility_orchestrator's agent and the phrases the router learns it from (the
 * Mobility Orchestrator: moto, taxi and cab rides, drivers, trips across Kigali). It has no tools
 * yet: offline, the front desk answers for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { MOBILITY_INTENTS } from "./intents.ts";

/** The mobility pack. */
export const MOBILITY_PACK: Pack = agentOnlyPack("mobility", {
  id: "mobility_orchestrator",
  intents: MOBILITY_INTENTS,
});
