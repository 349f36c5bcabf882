/**
 * Every customer agent's intent examples, for training the intent
 * classifier and language detector at start.
 *
 * @module
 */
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import { BUY_SELL_INTENTS } from "./buy_sell/intents.ts";
import { CONCIERGE_INTENTS } from "./concierge/intents.ts";
import { HARDWARE_INTENTS } from "./hardware/intents.ts";
import { INSURANCE_INTENTS } from "./insurance/intents.ts";
import { LEGAL_INTENTS } from "./legal/intents.ts";
import { MOBILITY_INTENTS } from "./mobility/intents.ts";
import { PAYMENTS_INTENTS } from "./payments/intents.ts";
import { PHARMACY_INTENTS } from "./pharmacy/intents.ts";
import { PROPERTY_INTENTS } from "./property/intents.ts";
import { SHOP_INTENTS } from "./shop/intents.ts";
import { SUPPORT_INTENTS } from "./support/intents.ts";
import { WAITER_INTENTS } from "./waiter/intents.ts";
export { UNCLEAR_PHRASES } from "./unclear/intents.ts";

/** The packs' intent examples, one entry per customer agent. */
export const PACK_INTENTS: readonly IntentExamples[] = [
  CONCIERGE_INTENTS,
  WAITER_INTENTS,
  MOBILITY_INTENTS,
  BUY_SELL_INTENTS,
  PHARMACY_INTENTS,
  HARDWARE_INTENTS,
  SHOP_INTENTS,
  INSURANCE_INTENTS,
  PROPERTY_INTENTS,
  LEGAL_INTENTS,
  PAYMENTS_INTENTS,
  SUPPORT_INTENTS,
];
