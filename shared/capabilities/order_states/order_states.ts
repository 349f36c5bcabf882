/**
 * The order state machine as data: pending → confirmed → preparing → ready →
 * delivered, with cancel only before preparing. The database enforces the
 * same moves (trigger `orders_guard_update`, migration
 * 20261123000600_commerce_mobility_payments.sql); a test checks the two agree.
 *
 * Fulfilment gate: an order enters preparing, ready or delivered only when its
 * payment is settled.
 *
 * @module
 */

/** Every status an order can have. */
export const ORDER_STATUSES = [
  "pending",
  "confirmed",
  "preparing",
  "ready",
  "delivered",
  "cancelled",
] as const;

/** An order status. */
export type OrderStatus = typeof ORDER_STATUSES[number];

/** The statuses each status may move to. */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ["confirmed", "cancelled"],
  confirmed: ["preparing", "cancelled"],
  preparing: ["ready"],
  ready: ["delivered"],
  delivered: [],
  cancelled: [],
};

/** Statuses that are fulfilment: reachable only once the payment is settled. */
export const FULFILMENT_STATUSES: readonly OrderStatus[] = ["preparing", "ready", "delivered"];

/** Whether `value` is an order status. */
export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** What a requested move would do. */
export type TransitionCheck =
  | { kind: "move" }
  | { kind: "same" }
  | { kind: "invalid"; allowed: readonly OrderStatus[] }
  | { kind: "unpaid" };

/** Options for {@link checkTransition}. */
export interface TransitionOptions {
  /** The current status. */
  from: OrderStatus;
  /** The requested status. */
  to: OrderStatus;
  /** Whether the order's payment is settled. */
  paid: boolean;
}

/**
 * Decides a requested move: `same` (idempotent repeat, nothing to do),
 * `move`, `invalid` (with the allowed next statuses) or `unpaid`
 * (fulfilment before settlement).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTransition } from "./order_states.ts";
 *
 * assert.deepEqual(checkTransition({ from: "pending", to: "confirmed", paid: false }), { kind: "move" });
 * assert.deepEqual(checkTransition({ from: "confirmed", to: "preparing", paid: false }), { kind: "unpaid" });
 * assert.equal(checkTransition({ from: "preparing", to: "cancelled", paid: true }).kind, "invalid");
 * ```
 */
export function checkTransition(options: TransitionOptions): TransitionCheck {
  const { from, to, paid } = options;
  if (from === to) return { kind: "same" };
  const allowed = ORDER_TRANSITIONS[from];
  if (!allowed.includes(to)) return { kind: "invalid", allowed };
  if (FULFILMENT_STATUSES.includes(to) && !paid) return { kind: "unpaid" };
  return { kind: "move" };
}
