/**
 * The commerce pack: what happens to an order after it is placed. Its tools
 * move orders along the state machine and tell the customer; its counterpart
 * lets a venue's staff do that from WhatsApp (buttons or "READY A-1042").
 * It has no agent of its own: Waiter AI, Pharmacy, Hardware and Shop use its
 * tools through their allowlists.
 *
 * - {@link COMMERCE_PACK}: the pack the composition root registers.
 * - {@link parseVenueCommand}: reads a venue's "READY A-1042".
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { ORDER_STATUS_CHANGED } from "./events.ts";
import { orderCancel } from "./order_cancel.ts";
import { orderStatusUpdate } from "./order_status_update.ts";
import { COMMERCE_TEXTS } from "./texts.ts";
import { answerVenueCommand } from "./venue_answer.ts";
import { VENUE_COUNTERPART } from "./venue_counterpart.ts";

export { parseVenueCommand } from "./venue_commands.ts";

/** The commerce pack. */
export const COMMERCE_PACK: Pack = {
  id: "commerce",
  tools: [orderStatusUpdate, orderCancel, answerVenueCommand],
  agents: [],
  tables: {
    orders: {
      id: "uuid",
      order_no: "text",
      business_id: "uuid",
      status: "text",
      payment_status: "text",
      total: "number",
      currency: "text",
      created_at: "timestamptz",
      updated_at: "timestamptz",
    },
  },
  texts: COMMERCE_TEXTS,
  services: [MESSAGING],
  events: [ORDER_STATUS_CHANGED],
  counterparts: [VENUE_COUNTERPART],
};
