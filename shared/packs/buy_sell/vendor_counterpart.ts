/**
 * Vendors as the buy & sell pack's counterparts: a message from a vendor we
 * asked about a buyer's request in the last day (or one that replies to our
 * inquiry) is their answer, handed to `process_vendor_reply`. An answer we
 * could not read ("tomorrow maybe") leaves the question open: the vendor is
 * shown how to answer, and their next message is still the answer. A yes or
 * no from a vendor who already answered in the last day, while our last
 * message to them was about the inquiry, changes (or, once the buyer chose,
 * tries to change) that answer: it never reaches the customer menu.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import { parseVendorReply } from "./reply_parser.ts";

/** How long after an inquiry a vendor's plain message still counts as its answer. */
const ANSWER_WINDOW_HOURS = 24;

/** The ids of the inquiry's answer buttons and its template's quick replies. */
const VENDOR_BUTTON = /^(vendor_)?(yes|no)$/i;

/** Whether a message answers one of our inquiries to this vendor. */
export async function answersInquiry(
  db: Queryable,
  message: CounterpartMessage,
): Promise<boolean> {
  // A shared location or a photo is never an answer to "do you have ...?".
  if (message.location || !(message.text || message.choice)) return false;
  // A tap counts only on our answer buttons: "confirm_yes" in the vendor's own customer flow is theirs.
  const isAnswer = message.choice
    ? VENDOR_BUTTON.test(message.choice)
    : parseVendorReply(message.text!).status !== "other";
  // An answer already given is changed only while our last word to them was about the inquiry
  // (the question, our thanks, the buyer's pick): a vendor shopping as a customer who types
  // "yes" to their own order's question is answering that instead.
  const [row] = await db.query(
    `select 1 from public.market_vendor_inquiry_messages m
     left join public.wa_outbox o on o.id = m.outbox_id
     where m.vendor_wa_id = $1
       and (($2::text is not null and o.wamid = $2)
         or (m.sent_at > now() - make_interval(hours => $3)
           and (m.reply_status in ('pending', 'other')
             or ($4 and (select last.idempotency_key ~ '^(inquiry|vendor-reply|chosen):'
                         from public.wa_outbox last where last.to_wa_id = $1
                         order by last.seq desc limit 1)))))
     limit 1`,
    [message.from, message.contextWamid ?? null, ANSWER_WINDOW_HOURS, isAnswer],
  );
  return Boolean(row);
}

/** The vendor counterpart. */
export const VENDOR_COUNTERPART: Counterpart = {
  id: "vendor",
  claims: answersInquiry,
  async handle(message, callTool) {
    await callTool("process_vendor_reply", {
      vendor_phone: message.from,
      message_body: message.choice ? undefined : message.text,
      button_id: message.choice,
      whatsapp_message_id: message.wamid,
      context_wamid: message.contextWamid,
    }, "process_vendor_reply");
  },
};
