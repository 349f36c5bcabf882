/**
 * The property pack: property's agent and the phrases the router learns it from (Property: houses,
 * rooms, apartments and land to rent or buy, viewings). It has no tools yet: offline, the front
 * desk answers for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { PROPERTY_INTENTS } from "./intents.ts";

/** The property pack. */
export const PROPERTY_PACK: Pack = agentOnlyPack("property", {
  id: "property",
  intents: PROPERTY_INTENTS,
});
