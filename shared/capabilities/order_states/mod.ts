/**
 * Order states, a capability the ordering conversation, the commerce pack
 * (venues moving orders) and the payments pack share: the state machine as
 * data (`ORDER_TRANSITIONS`, `checkTransition`; the database enforces the
 * same moves) and one table of state names in en, rw and fr
 * (`orderStateName`, `paymentStateName`), so an order's state reads the same
 * to the customer, the venue and the payments agent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTransition, orderStateName } from "@shared/capabilities/order_states/mod.ts";
 *
 * assert.equal(checkTransition({ from: "pending", to: "confirmed", paid: false }).kind, "move");
 * assert.equal(orderStateName("confirmed", "rw"), "ryemejwe");
 * ```
 *
 * @module
 */
export {
  checkTransition,
  FULFILMENT_STATUSES,
  isOrderStatus,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderStatus,
  type TransitionCheck,
  type TransitionOptions,
} from "./order_states.ts";
export {
  ORDER_STATE_NAMES,
  orderStateName,
  PAYMENT_STATE_NAMES,
  PAYMENT_STATUSES,
  paymentStateName,
  type PaymentStatus,
} from "./state_names.ts";
