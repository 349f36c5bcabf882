/**
 * The hardware pack: hardware's agent and the phrases the router learns it from (Hardware:
 * construction materials, tools, quincaillerie). It has no tools yet: offline, the front desk
 * answers for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { HARDWARE_INTENTS } from "./intents.ts";

/** The hardware pack. */
export const HARDWARE_PACK: Pack = agentOnlyPack("hardware", {
  id: "hardware",
  intents: HARDWARE_INTENTS,
});
