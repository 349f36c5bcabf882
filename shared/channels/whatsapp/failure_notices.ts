/**
 * What the WhatsApp worker owes when it cannot do its job, staged as
 * outbound work so none of it is lost to a failing call:
 *
 * - a message given up after its retries: its sender is told in their
 *   language (a `wa_outbox` row) and staff get one ticket for it (an `inbox`
 *   row of `notification_outbox`), both in the transaction that marks the
 *   message failed;
 * - the Graph API refusing our token for a media lookup: one staff ticket
 *   per incident (none is staged while one is open or waiting).
 *
 * @module
 */
import { languageOf, phraseBook } from "@shared/contract/language.ts";
import type { Queryable } from "@shared/db/types.ts";
import { stageStaffTicket } from "@shared/channels/notifications/inbox_tickets.ts";
import type { CredentialsRefusal } from "./inbound_media.ts";
import type { InboundFailure } from "./inbound_processor.ts";
import { textMessage } from "./messages.ts";
import { enqueueMessage } from "./outbox.ts";

const say = phraseBook({
  gaveUp: {
    en:
      "Sorry, we could not handle your last message because of a problem on our side. Our team has been told and will get back to you. Send 0 for the menu.",
    rw:
      "Twihanganire, ntitwashoboye gusubiza ubutumwa bwawe bwa nyuma kubera ikibazo kiri iwacu. Abakozi bacu babimenyeshejwe kandi baragusubiza. Andika 0 ubone menu.",
    fr:
      "Désolé, nous n'avons pas pu traiter votre dernier message à cause d'un problème de notre côté. Notre équipe est prévenue et vous répondra. Envoyez 0 pour le menu.",
  },
});

/** The reason of the ticket for a message given up. */
export const GAVE_UP_REASON = "WhatsApp message could not be processed";

/** The reason of the ticket for a refused Graph token. */
export const CREDENTIALS_REASON = "WhatsApp media lookups refused our access token";

/**
 * Stages, in the transaction marking the message failed, a reply to its
 * sender in their language (the message's own, else their profile's, which
 * follows the conversation's) and one staff ticket for it.
 *
 * @param tx The transaction that marks the message failed.
 * @param options The org and the failure.
 */
export async function stageGivenUp(
  tx: Queryable,
  options: { orgId: string; failure: InboundFailure },
): Promise<void> {
  const { orgId, failure } = options;
  const [sender] = await tx.query<{ locale: "en" | "rw" | "fr"; conversation_id: string | null }>(
    `select p.locale, c.id as conversation_id
       from public.profiles p
       left join public.conversations c
         on c.user_id = p.id and c.org_id = $2 and c.channel = 'whatsapp' and c.status <> 'closed'
      where p.phone = $1`,
    [`+${failure.from}`, orgId],
  );
  const language = languageOf(failure.text, sender?.locale ?? "en");
  const conversationId = sender?.conversation_id ?? undefined;
  await enqueueMessage(tx, {
    orgId,
    to: failure.from,
    message: textMessage(say("gaveUp", language)),
    idempotencyKey: `gave-up:${failure.wamid}`.slice(0, 255),
    ...(conversationId ? { conversationId } : {}),
  });
  await stageStaffTicket(tx, {
    orgId,
    ticket: {
      key: `wa-inbound-failed:${failure.wamid}`.slice(0, 255),
      reason: GAVE_UP_REASON,
      summary: `Message ${failure.wamid} from +${failure.from} failed ${failure.attempts} ` +
        `times and will not be retried: ${failure.reason}. The customer was told (${language}) ` +
        "that we could not handle it and that the team will get back to them.",
      priority: "high",
      ...(conversationId ? { convo_id: conversationId } : {}),
    },
  });
}

/**
 * Stages one staff ticket for a media lookup refused for our token, unless
 * one is open or waiting to be opened: one ticket per incident, which ends
 * when staff resolve it. Concurrent refusals stage one: they share the key,
 * numbered after the tickets of this reason the org has had.
 *
 * @param db Where to stage it, as the connecting role.
 * @param options The org and the refusal.
 * @returns Whether a ticket was staged.
 */
export async function stageCredentialsAlert(
  db: Queryable,
  options: { orgId: string; refusal: CredentialsRefusal },
): Promise<boolean> {
  const { orgId, refusal } = options;
  const [{ incidents }] = await db.query<{ incidents: number }>(
    "select count(*)::int as incidents from public.staff_tickets where org_id = $1 and reason = $2",
    [orgId, CREDENTIALS_REASON],
  );
  const { status, detail: { code, subcode, fbtraceId } } = refusal.error;
  return await stageStaffTicket(db, {
    orgId,
    unlessOpen: true,
    ticket: {
      key: `wa-media-credentials:${orgId}:${incidents + 1}`,
      reason: CREDENTIALS_REASON,
      summary: `The Graph API refused a media lookup with HTTP ${status}` +
        (code === undefined ? "" : `, code ${code}`) +
        (subcode === undefined ? "" : `, subcode ${subcode}`) +
        (fbtraceId === undefined ? "" : `, fbtrace_id ${fbtraceId}`) +
        ` (message ${refusal.wamid}). Customers' photos and files cannot be opened until ` +
        "WHATSAPP_TOKEN is fixed (expired, revoked, or without whatsapp_business_messaging); " +
        "each customer is told to send theirs again a little later. Resolve this ticket once " +
        "fixed: the next refusal opens a new one.",
      priority: "urgent",
    },
  });
}
