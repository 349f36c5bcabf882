/**
 * The support pack's events for automations: a hand-off ticket was opened,
 * or its status or priority changed. Written by a trigger on
 * `public.staff_tickets` (migration `20261130000400_automations.sql`) in
 * the transaction that opens or changes the ticket.
 *
 * @module
 */
import { z } from "zod";
import type { PackEvent } from "@shared/registry/pack.ts";

const TICKET_STATUS = z.enum(["open", "claimed", "resolved"]);

const TicketPayload = z.object({
  ticket_id: z.uuid().describe("The ticket"),
  reason: z.string().describe("Why the customer was handed to staff"),
  summary: z.string().describe("What staff need to know"),
  priority: z.enum(["low", "medium", "high", "urgent"]).describe("The ticket's priority"),
  status: TICKET_STATUS.describe("The ticket's status now"),
  status_from: TICKET_STATUS.nullable().describe("The status before (ticket_updated only)"),
  conversation_id: z.uuid().nullable().describe("The customer's conversation, if any"),
  customer_phone: z.string().nullable().describe("The customer's phone, E.164, if known"),
  customer_name: z.string().nullable().describe("The customer's name, if known"),
});

/** A ticket was opened (a conversation handed to staff). */
export const TICKET_CREATED: PackEvent = {
  name: "ticket_created",
  description: "A conversation was handed to staff: a ticket was opened in the Admin Inbox",
  payload: TicketPayload,
};

/** A ticket's status or priority changed. */
export const TICKET_UPDATED: PackEvent = {
  name: "ticket_updated",
  description: "A hand-off ticket was claimed, resolved or re-prioritised",
  payload: TicketPayload,
};
