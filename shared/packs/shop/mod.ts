/**
 * The shop pack: shop's agent and the phrases the router learns it from (Shop: groceries,
 * supermarket and boutique everyday items). It has no tools yet: offline, the front desk answers
 * for it.
 *
 * @module
 */
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { SHOP_INTENTS } from "./intents.ts";

/** The shop pack. */
export const SHOP_PACK: Pack = agentOnlyPack("shop", { id: "shop", intents: SHOP_INTENTS });
