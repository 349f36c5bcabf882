/**
 * The event a customer's message raises for automations (`Pack.events`):
 * declared here, beside the messaging port, because the channel that
 * commits the message writes it and the pack that owns the conversation
 * (the front desk) lists it; neither may import the other.
 *
 * @module
 */
import { z } from "zod";
import type { PackEvent } from "@shared/registry/pack.ts";

/** The payload of {@link MESSAGE_RECEIVED}. */
export const MessageReceivedPayload = z.object({
  message_id: z.string().describe("The channel's message id (WhatsApp's wamid)"),
  text: z.string().describe("What the customer wrote (a file's caption, a tapped button's title)"),
  sender_phone: z.string().describe("The sender's phone, E.164 (+250…)"),
  sender_name: z.string().describe("The sender's profile name; empty when the channel gave none"),
  language: z.enum(["en", "rw", "fr"]).describe("The conversation's language"),
  conversation_id: z.uuid().describe("The conversation the message belongs to"),
  agent: z.string().nullable().describe("The agent holding the conversation, if any"),
});

/** A customer's message was received and committed to its conversation. */
export const MESSAGE_RECEIVED: PackEvent = {
  name: "message_received",
  description:
    "A customer's WhatsApp message was received (once per message, re-deliveries included)",
  payload: MessageReceivedPayload,
};
