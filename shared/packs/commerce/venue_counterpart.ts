/**
 * Venue staff as the commerce pack's counterparts: a venue's WhatsApp number
 * tapping an order button or typing "READY A-1042" moves its own order
 * through `order_status_update` (as the venue: the service call carries the
 * sender's number, which the database checks against the order's venue),
 * and is answered in its language by `answer_venue_command`.
 *
 * Narrow on purpose: only a message that is such a command, from the venue
 * of the order it names, while the order is open (or closed within the last
 * day, so a repeated tap is answered rather than taken for a customer's
 * message). A venue's owner who orders food still reaches the customer flow.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { orderStatusUpdate } from "./order_status_update.ts";
import { parseVenueCommand } from "./venue_commands.ts";

/** How long after an order is closed a venue's command about it is still answered. */
const CLOSED_GRACE_HOURS = 24;

/** Whether a message is a venue's command about one of its own orders. */
export async function isVenueCommand(db: Queryable, message: CounterpartMessage): Promise<boolean> {
  const command = parseVenueCommand(message);
  if (!command) return false;
  const [row] = await db.query(
    `select 1 from public.orders o
     join public.businesses b on b.id = o.business_id
     where o.order_no = $1
       and (b.owner_whatsapp = $2 or b.phone = '+' || $2)
       and (o.status not in ('delivered', 'cancelled')
         or o.updated_at > now() - make_interval(hours => $3))
     limit 1`,
    [command.orderNo, message.from, CLOSED_GRACE_HOURS],
  );
  return Boolean(row);
}

/** The venue counterpart. */
export const VENUE_COUNTERPART: Counterpart = {
  id: "venue",
  claims: isVenueCommand,
  async handle(message, callTool) {
    const command = parseVenueCommand(message);
    if (!command) return;
    const moved = await callTyped(callTool, orderStatusUpdate, {
      order_id: command.orderNo,
      status: command.status,
      venue_phone: message.from,
    }, "order_status_update");
    const outcome = moved.ok
      ? (moved.data.changed ? "moved" : "unchanged")
      : moved.error.code === "NOT_FOUND"
      ? "not_found"
      : moved.error.code === "CONFLICT"
      ? "refused"
      : "failed";
    await callTool("answer_venue_command", {
      venue_phone: message.from,
      order_no: command.orderNo,
      status: command.status,
      outcome,
      language: command.language,
      reply_key: message.wamid,
    }, "answer_venue_command");
  },
};
