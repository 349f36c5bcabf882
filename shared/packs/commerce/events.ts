/**
 * The commerce pack's event for automations: an order's status changed.
 * Written by a trigger on `public.orders` (migration
 * `20261130000400_automations.sql`) in the transaction that changes the
 * status, whichever tool or flow changed it, keyed by the order and its new
 * status.
 *
 * @module
 */
import { z } from "zod";
import type { PackEvent } from "@shared/registry/pack.ts";

const ORDER_STATUS = z.enum([
  "pending",
  "confirmed",
  "preparing",
  "ready",
  "delivered",
  "cancelled",
]);

/** An order's status changed. */
export const ORDER_STATUS_CHANGED: PackEvent = {
  name: "order_status_changed",
  description: "An order's status changed (confirmed, preparing, ready, delivered, cancelled)",
  payload: z.object({
    order_id: z.uuid().describe("The order"),
    order_no: z.string().nullable().describe("The order's number as the venue and customer see it"),
    venue_id: z.uuid().describe("The venue (business) the order is from"),
    venue_name: z.string().nullable().describe("The venue's name"),
    status_from: ORDER_STATUS.describe("The status before"),
    status_to: ORDER_STATUS.describe("The new status"),
    total: z.number().describe("The order's total, in whole units of its currency"),
    currency: z.string().describe("ISO 4217 code, e.g. RWF"),
  }),
};
