/**
 * The ordering conversation, a capability several packs share (Waiter AI,
 * Pharmacy, Hardware, Shop): the offline steps from picking a venue to the
 * read-back, the order and its payment (`orderFlow`, set per pack by venue
 * kind and texts), the tables those steps read (`ORDERING_TABLES`), their
 * phrase book (`ORDER_TEXTS`), the parser for "2 latte, 1 croissant"
 * (`parseOrderLines`), product units per language, and the pending work a
 * user's open orders show (`orderPending`).
 *
 * It lives above the kernel because it is domain code (venues, orders,
 * prices), and outside any one pack because four packs run it.
 *
 * Its memory is typed: `orderingMemory` holds the fields the steps keep
 * (their position `step`, typed by `orderState`), spread into the memory
 * schema of the pack that runs them at `ORDERING_MEMORY_VERSION`.
 *
 * @example Run the ordering conversation for a kind of venue
 * ```ts ignore
 * import { z } from "zod";
 * import { typedFlow } from "@shared/registry/flow_memory.ts";
 * import {
 *   orderFlow,
 *   orderingAgentFlow,
  ORDERING_MEMORY_VERSION,
 *   orderingMemory,
 * } from "@shared/capabilities/ordering/mod.ts";
 * const flow = typedFlow({
 *   version: ORDERING_MEMORY_VERSION,
 *   memory: z.object(orderingMemory),
 *   step: orderFlow({ category: "pharmacy", texts: PHARMACY_ORDER_TEXTS, searchStock: true }),
 * });
 * ```
 *
 * @module
 */
export {
  ORDER_SUMMARY_COLUMNS,
  ORDER_TEXTS,
  type OrderDomainTexts,
  orderFlow,
  type OrderFlowOptions,
  ORDERING_MEMORY_VERSION,
  ORDERING_TABLES,
  ORDERING_TOOLS,
  orderingAgentFlow,
  type OrderingMemory,
  orderingMemory,
  type OrderState,
  orderState,
  type OrderSteps,
  type OrderSummaryRow,
  orderSummaryRows,
  venueNamed,
  venueNameOf,
} from "./order_steps.ts";
export { cancelOpenOrder, findOpenOrder, orderPending } from "./order_pending.ts";
export {
  bestProduct,
  type ListedProduct,
  nameScore,
  normalizeWords,
  type OrderLine,
  type ParsedOrder,
  parseOrderLines,
} from "./order_lines.ts";
export { PRODUCT_UNITS, productUnit } from "./product_units.ts";
