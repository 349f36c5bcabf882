/**
 * The pack list: every domain the platform runs, one line each. Only the
 * composition root (`shared/platform/`) imports it; order matters where
 * words could name two agents (the first pack's agent wins) and is the
 * order of the front desk's menu.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { ANALYTICS_RISK_PACK } from "./analytics_risk/mod.ts";
import { AUTOMATIONS_PACK } from "./automations/mod.ts";
import { BUY_SELL_PACK } from "./buy_sell/mod.ts";
import { COMMERCE_PACK } from "./commerce/mod.ts";
import { CONCIERGE_PACK } from "./concierge/mod.ts";
import { HARDWARE_PACK } from "./hardware/mod.ts";
import { INSURANCE_PACK } from "./insurance/mod.ts";
import { LEGAL_PACK } from "./legal/mod.ts";
import { LOCOPS_PACK } from "./locops/mod.ts";
import { MARKETING_PACK } from "./marketing/mod.ts";
import { MOBILITY_PACK } from "./mobility/mod.ts";
import { PAYMENTS_PACK } from "./payments/mod.ts";
import { PHARMACY_PACK } from "./pharmacy/mod.ts";
import { PROPERTY_PACK } from "./property/mod.ts";
import { SHOP_PACK } from "./shop/mod.ts";
import { SUPPORT_PACK } from "./support/mod.ts";
import { VIDEO_PACK } from "./video/mod.ts";
import { WAITER_PACK } from "./waiter/mod.ts";

export { UNCLEAR_PHRASES } from "./unclear/intents.ts";

/** The packs, in routing and menu order. */
export const PACKS: readonly Pack[] = [
  CONCIERGE_PACK,
  COMMERCE_PACK,
  WAITER_PACK,
  MOBILITY_PACK,
  BUY_SELL_PACK,
  PHARMACY_PACK,
  SHOP_PACK,
  HARDWARE_PACK,
  INSURANCE_PACK,
  PROPERTY_PACK,
  LEGAL_PACK,
  PAYMENTS_PACK,
  SUPPORT_PACK,
  // The staff desk's menu, in this order.
  LOCOPS_PACK,
  ANALYTICS_RISK_PACK,
  VIDEO_PACK,
  // No agent: staff's automation tools and slack_notify; its runner is the platform's.
  AUTOMATIONS_PACK,
  // Last: its opt-out counterpart reads STOP / HAGARIKA / ARRÊT after those who answer something
  // open (a driver's "stop" is going offline), still before any conversation.
  MARKETING_PACK,
];
