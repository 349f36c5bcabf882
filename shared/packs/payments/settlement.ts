/**
 * Settlement: one piece of evidence (a signed callback, a forwarded SMS, a
 * vendor's `PAID <ref>`, the expiry sweep) applied to one charge, in the
 * caller's service transaction. The evidence is recorded once
 * (`payment_events` is unique per org, source and key: a repeat is answered
 * from it and changes nothing); the charge moves from pending to its final
 * state once (the database refuses any other move, and the linked order or
 * ride follows by trigger); the payer and the payee are told on WhatsApp in
 * their language through the outbox, each message once per charge and
 * outcome. Evidence that cannot settle by itself (an amount that differs,
 * money reported after the charge ended) raises a payment ticket for staff.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { Queryable } from "@shared/db/types.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import {
  buttonsOut,
  type MessagingPort,
  templateOut,
  textOut,
} from "@shared/capabilities/messaging/mod.ts";
import { formatMoney, formatRwf } from "@shared/capabilities/format/mod.ts";
import { localPhone, PAYMENTS_TEXTS, say, whyFailed } from "./texts.ts";

/** Where a piece of evidence came from (payment_events.source). */
export type EvidenceSource = "callback" | "sms" | "vendor" | "sweep";

/** What the evidence says happened. */
export type EvidenceOutcome = "settled" | "failed" | "insufficient_funds" | "expired";

/** One piece of settlement evidence. */
export interface Evidence {
  /** Its source. */
  source: EvidenceSource;
  /** Unique per org and source: a repeat with the same key changes nothing. */
  dedupeKey: string;
  /** What it reports. */
  outcome: EvidenceOutcome;
  /** The amount it reports, whole RWF (callbacks and SMS). */
  amount?: number | null;
  /** The provider's transaction id. */
  providerTxnId?: string | null;
  /** The person who confirmed (a vendor). */
  actorUserId?: string | null;
  /** What arrived, for the record (no secrets). */
  payload?: Record<string, unknown>;
}

/** A charge with what its messages need, locked for this transaction. */
export interface ChargeRow {
  id: string;
  org_id: string;
  momo_ref: string;
  amount: number;
  status: "pending" | "settled" | "failed" | "expired";
  failure_reason: string | null;
  payer_id: string | null;
  payer_phone: string;
  payer_name: string | null;
  payee_phone: string | null;
  payee_merchant_code: string | null;
  /** The name `momo_charge` kept for a venue, a driver or the tenant paid on its own account. */
  payee_name: string | null;
  language: Language;
  expires_at: string;
  settled_at: string | null;
  order_id: string | null;
  order_no: string | null;
  venue_name: string | null;
  venue_wa_id: string | null;
  venue_owner_id: string | null;
  ride_request_id: string | null;
  driver_name: string | null;
  driver_phone: string | null;
}

/** How the evidence was taken. */
export type SettleOutcome =
  /** It moved the charge to `status`. */
  | { kind: "applied"; status: ChargeRow["status"]; charge: ChargeRow }
  /** The same evidence was seen before: nothing changed. */
  | { kind: "replayed"; status: ChargeRow["status"]; charge: ChargeRow }
  /** The charge had already ended; recorded (and a ticket when money arrived late). */
  | { kind: "final"; status: ChargeRow["status"]; charge: ChargeRow }
  /** Money reported with another amount: recorded, not settled, staff ticket raised. */
  | { kind: "amount_mismatch"; status: ChargeRow["status"]; charge: ChargeRow };

const CHARGE_SQL = `
  select p.id, p.org_id, p.momo_ref, p.amount::float8 as amount, p.status, p.failure_reason,
         p.payer_id, p.payer_phone, pp.display_name as payer_name, p.payee_phone,
         p.payee_merchant_code, p.metadata->>'payee_name' as payee_name, p.language,
         to_jsonb(p.expires_at) #>> '{}' as expires_at,
         to_jsonb(p.settled_at) #>> '{}' as settled_at,
         p.order_id, o.order_no, b.name as venue_name,
         coalesce(b.owner_whatsapp, substr(b.momo_phone, 2)) as venue_wa_id,
         b.owner_user_id as venue_owner_id,
         p.ride_request_id, d.display_name as driver_name, d.phone as driver_phone
  from public.payments p
  left join public.profiles pp on pp.id = p.payer_id
  left join public.orders o on o.id = p.order_id and o.org_id = p.org_id
  left join public.businesses b on b.id = o.business_id and b.org_id = o.org_id
  left join public.ride_requests r on r.id = p.ride_request_id and r.org_id = p.org_id
  left join public.drivers d on d.id = r.matched_driver_id and d.org_id = r.org_id`;

/**
 * Locks and reads one charge by its reference (in `orgId` when given), or
 * null when there is none. Run on a service transaction.
 */
export async function lockCharge(
  tx: Queryable,
  momoRef: string,
  orgId?: string,
): Promise<ChargeRow | null> {
  const [row] = await tx.query<ChargeRow>(
    `${CHARGE_SQL}
     where p.momo_ref = $1 and ($2::uuid is null or p.org_id = $2::uuid)
     for update of p`,
    [momoRef, orgId ?? null],
  );
  return row ? { ...row, amount: Number(row.amount) } : null;
}

/**
 * Reads one charge by its reference (in `orgId` when given) without locking
 * it, or null when there is none: for a caller who may read it under RLS
 * (staff of its org) but not lock it (the table takes no update from callers).
 */
export async function readCharge(
  tx: Queryable,
  momoRef: string,
  orgId?: string,
): Promise<ChargeRow | null> {
  const [row] = await tx.query<ChargeRow>(
    `${CHARGE_SQL}
     where p.momo_ref = $1 and ($2::uuid is null or p.org_id = $2::uuid)`,
    [momoRef, orgId ?? null],
  );
  return row ? { ...row, amount: Number(row.amount) } : null;
}

/** Who was paid, in words: the venue, the driver, the tenant (its own account), or the phone. */
export function payeeLabel(charge: ChargeRow): string {
  return charge.venue_name ?? charge.driver_name ?? charge.payee_name ??
    (charge.payee_phone ? localPhone(charge.payee_phone) : `MoMoPay ${charge.payee_merchant_code}`);
}

/** What the payment was for, as the payer reads it (` for A-1042 at Café Neo`). */
function forWhat(charge: ChargeRow, language: Language): string {
  const payee = payeeLabel(charge);
  if (charge.order_no) {
    return say("forOrder", language, { order: charge.order_no, payee });
  }
  if (charge.ride_request_id && charge.driver_name) return say("forRide", language, { payee });
  return say("toPayee", language, { payee });
}

/** The payee's WhatsApp id: the venue's number, the driver's, or the phone paid. */
function payeeWaId(charge: ChargeRow): string | null {
  const phone = charge.venue_wa_id ?? charge.driver_phone ?? charge.payee_phone;
  if (!phone) return null;
  try {
    return toWaId(phone);
  } catch {
    return null;
  }
}

async function payeeLanguage(tx: Queryable, waId: string, fallback: Language): Promise<Language> {
  const [row] = await tx.query<{ locale: Language }>(
    "select locale from public.profiles where phone = $1",
    [`+${waId}`],
  );
  return row?.locale ?? fallback;
}

/** Raises a payment ticket in the Admin Inbox (staff can confirm from it). */
export async function paymentTicket(
  tx: Queryable,
  options: {
    orgId: string;
    reason: string;
    summary: string;
    paymentId?: string | null;
    requesterId?: string | null;
  },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.staff_tickets
       (org_id, channel, reason, summary, priority, payment_id, requester_user_id)
     values ($1, 'inbox', $2, $3, 'high', $4, $5) returning id`,
    [
      options.orgId,
      options.reason.slice(0, 200),
      options.summary.slice(0, 2000),
      options.paymentId ?? null,
      options.requesterId ?? null,
    ],
  );
  return row.id;
}

// Outside a person's 24-hour window only an approved template is delivered: this one relays
// the payment message (docs/whatsapp_templates.md).
function paymentUpdate(text: string, language: Language) {
  return templateOut({ name: "payment_update", language, parameters: [text] });
}

/**
 * Tells the payer (and, when paid, the payee) how the charge ended. Once per charge and status.
 * A payee who has not written in 24 hours (a shop told of a payment) gets it as the approved
 * `payment_update` template, as does a payer whose charge ended late.
 */
export async function notifyParties(
  tx: Queryable,
  charge: ChargeRow,
  messaging: MessagingPort,
): Promise<void> {
  const lang = charge.language;
  const key = `payment:${charge.momo_ref}:${charge.status}`;
  if (charge.status === "settled") {
    const toPayer = say("settledPayer", lang, {
      amount: formatRwf(charge.amount, lang),
      what: forWhat(charge, lang),
      ref: charge.momo_ref,
    });
    await messaging.send(tx, {
      orgId: charge.org_id,
      to: charge.payer_phone,
      message: textOut(toPayer),
      fallback: paymentUpdate(toPayer, lang),
      idempotencyKey: `${key}:payer`,
    });
    const payee = payeeWaId(charge);
    if (payee && payee !== toWaId(charge.payer_phone)) {
      const payeeLang = await payeeLanguage(tx, payee, lang);
      const toPayee = say("settledPayee", payeeLang, {
        amount: formatRwf(charge.amount, payeeLang),
        payer: charge.payer_name ?? localPhone(charge.payer_phone),
        what: charge.order_no ? say("payeeOrder", payeeLang, { order: charge.order_no }) : "",
        ref: charge.momo_ref,
      });
      await messaging.send(tx, {
        orgId: charge.org_id,
        to: payee,
        message: textOut(toPayee),
        fallback: paymentUpdate(toPayee, payeeLang),
        idempotencyKey: `${key}:payee`,
      });
    }
    return;
  }
  if (charge.status === "pending") return;
  const failed = say("failedPayer", lang, {
    amount: formatRwf(charge.amount, lang),
    ref: charge.momo_ref,
    why: whyFailed(charge.failure_reason, lang),
  });
  await messaging.send(tx, {
    orgId: charge.org_id,
    to: charge.payer_phone,
    fallback: paymentUpdate(failed, lang),
    message: buttonsOut(failed, [
      { id: "agent:payments", title: PAYMENTS_TEXTS.payAgain[lang] },
      { id: "agent:support_handoff", title: PAYMENTS_TEXTS.person[lang] },
    ]),
    idempotencyKey: `${key}:payer`,
  });
}

const FINAL_OF: Record<EvidenceOutcome, { status: ChargeRow["status"]; reason: string | null }> = {
  settled: { status: "settled", reason: null },
  failed: { status: "failed", reason: "PAYMENT_FAILED" },
  insufficient_funds: { status: "failed", reason: "INSUFFICIENT_FUNDS" },
  expired: { status: "expired", reason: "EXPIRED" },
};

/**
 * Applies one piece of evidence to a charge locked by {@link lockCharge}, in
 * the same service transaction.
 *
 * @throws the database's error when the provider's transaction id already
 *   settled another charge (unique: `CONFLICT` through the pipeline).
 */
export async function applyEvidence(
  tx: Queryable,
  charge: ChargeRow,
  evidence: Evidence,
  messaging: MessagingPort,
): Promise<SettleOutcome> {
  const recorded = await tx.query(
    `insert into public.payment_events
       (org_id, payment_id, source, dedupe_key, momo_ref, provider_txn_id, reported_status, amount,
        actor_user_id, payload)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     on conflict (org_id, source, dedupe_key) do nothing
     returning id`,
    [
      charge.org_id,
      charge.id,
      evidence.source,
      evidence.dedupeKey,
      charge.momo_ref,
      evidence.providerTxnId ?? null,
      evidence.outcome,
      evidence.amount ?? null,
      evidence.actorUserId ?? null,
      evidence.payload ?? {},
    ],
  );
  if (recorded.length === 0) return { kind: "replayed", status: charge.status, charge };

  const moneyArrived = evidence.outcome === "settled";
  if (charge.status !== "pending") {
    // Money reported for a charge that already ended otherwise: a person must look.
    if (moneyArrived && charge.status !== "settled") {
      // A charge the payer cancelled is "cancelled" to staff, not "failed": they refund it.
      const ended = charge.failure_reason === "CANCELLED" ? "cancelled" : charge.status;
      const amount = evidence.amount ?? charge.amount;
      await paymentTicket(tx, {
        orgId: charge.org_id,
        paymentId: charge.id,
        requesterId: charge.payer_id,
        reason: `Payment arrived after the charge was ${ended}`,
        summary: `${charge.momo_ref}: ${evidence.source} reports ${
          formatMoney(amount, "en")
        } received${
          evidence.providerTxnId ? ` (transaction ${evidence.providerTxnId})` : ""
        }, but the charge is ${ended}. Check the payee's MoMo account, then confirm or refund.`,
      });
      // The payer hears of it too: money taken for an ended charge is never kept in silence.
      const late = say("lateMoneyPayer", charge.language, {
        amount: formatRwf(amount, charge.language),
        ref: charge.momo_ref,
        why: whyFailed(charge.failure_reason, charge.language),
      });
      await messaging.send(tx, {
        orgId: charge.org_id,
        to: charge.payer_phone,
        message: textOut(late),
        fallback: paymentUpdate(late, charge.language),
        idempotencyKey: `payment:${charge.momo_ref}:late:payer`,
      });
    }
    return { kind: "final", status: charge.status, charge };
  }
  if (moneyArrived && evidence.amount != null && evidence.amount !== charge.amount) {
    await paymentTicket(tx, {
      orgId: charge.org_id,
      paymentId: charge.id,
      requesterId: charge.payer_id,
      reason: "Payment amount differs from the charge",
      summary:
        `${charge.momo_ref}: ${evidence.source} reports ${formatMoney(evidence.amount, "en")}, ` +
        `the charge asks ${formatMoney(charge.amount, "en")}${
          payeeLabel(charge) ? ` (payee ${payeeLabel(charge)})` : ""
        }. ` +
        "Not settled: confirm it here if the difference is accepted.",
    });
    const mismatch = say("mismatchPayer", charge.language, {
      ref: charge.momo_ref,
      amount: formatRwf(charge.amount, charge.language),
    });
    await messaging.send(tx, {
      orgId: charge.org_id,
      to: charge.payer_phone,
      message: textOut(mismatch),
      fallback: paymentUpdate(mismatch, charge.language),
      idempotencyKey: `payment:${charge.momo_ref}:mismatch:${evidence.dedupeKey}`.slice(0, 255),
    });
    return { kind: "amount_mismatch", status: charge.status, charge };
  }
  const final = FINAL_OF[evidence.outcome];
  const [updated] = await tx.query<{ settled_at: string | null }>(
    `update public.payments
     set status = $2, failure_reason = $3,
         settled_at = case when $2 = 'settled' then now() end,
         settled_by = case when $2 = 'settled' then $4 end,
         settled_by_user_id = case when $2 = 'settled' then $5::uuid end,
         provider_txn_id = coalesce($6, provider_txn_id)
     where id = $1
     returning to_jsonb(settled_at) #>> '{}' as settled_at`,
    [
      charge.id,
      final.status,
      final.reason,
      evidence.source,
      evidence.actorUserId ?? null,
      evidence.providerTxnId ?? null,
    ],
  );
  const after: ChargeRow = {
    ...charge,
    status: final.status,
    failure_reason: final.reason,
    settled_at: updated?.settled_at ?? null,
  };
  await notifyParties(tx, after, messaging);
  return { kind: "applied", status: final.status, charge: after };
}
