/**
 * The tools settlement runs through, called by the `payments` function and
 * the vendor counterpart as the service on the charge's org (never offered
 * to users or agents):
 *
 * - `payment_settle`: a provider's signed callback for one charge;
 * - `payment_record_sms`: a merchant phone's forwarded confirmation SMS,
 *   stored, parsed and matched to exactly one open charge, else a ticket;
 * - `payment_confirm_by_payee`: a vendor's (or driver's, or the paid
 *   person's) `PAID <ref>` on WhatsApp;
 * - `payment_expire_due`: the sweep of charges past their expiry.
 *
 * @module
 */
import { formatRwf } from "@shared/capabilities/format/mod.ts";
import { z } from "zod";
import { e164Phone, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import { MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
import { matchCharge, type OpenCharge, parseMomoSms } from "./momo_sms.ts";
import {
  applyEvidence,
  type ChargeRow,
  type EvidenceOutcome,
  lockCharge,
  notifyParties,
  paymentTicket,
  readCharge,
  type SettleOutcome,
} from "./settlement.ts";
import { paymentStateName } from "@shared/capabilities/order_states/mod.ts";
import { localPhone, say } from "./texts.ts";

/** A momo_ref as `momo_charge` writes it (and the schema allows). */
export const MOMO_REF = /^[A-Z0-9][A-Z0-9-]{3,31}$/;

const momoRef = z.string().trim().toUpperCase().regex(
  MOMO_REF,
  "must be a reference like PAY-7K3QX",
);

/** Callback statuses and what they mean for the charge. */
export const CALLBACK_STATUS: Record<string, EvidenceOutcome> = {
  SUCCESSFUL: "settled",
  FAILED: "failed",
  INSUFFICIENT_FUNDS: "insufficient_funds",
  EXPIRED: "expired",
};

const settledOutput = z.object({
  momo_ref: z.string(),
  status: z.enum(["pending", "settled", "failed", "expired"]),
  outcome: z.enum(["applied", "replayed", "final", "amount_mismatch"]),
});

function settled(outcome: SettleOutcome) {
  return { momo_ref: outcome.charge.momo_ref, status: outcome.status, outcome: outcome.kind };
}

/** The `payment_settle` tool. */
export const paymentSettle = defineTool({
  name: "payment_settle",
  title: "Settle a charge from a provider callback",
  description: "Apply a provider's signed settlement callback to one MoMo charge. Called by the " +
    "payments function.",
  category: "payments",
  input: z.object({
    momo_ref: momoRef,
    status: z.enum(["SUCCESSFUL", "FAILED", "INSUFFICIENT_FUNDS", "EXPIRED"]),
    provider_txn_id: text({ min: 1, max: 64 }),
    amount: z.int().min(0).max(100_000_000),
    payer_phone: text({ max: 32 }).optional(),
  }),
  output: settledOutput,
  examples: [{
    input: {
      momo_ref: "PAY-7K3QX2",
      status: "SUCCESSFUL",
      provider_txn_id: "1234567890",
      amount: 5000,
    },
  }],
  sideEffects: "writes.payment",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const charge = await lockCharge(ctx.db, args.momo_ref, ctx.org_id ?? undefined);
    if (!charge) throw new ToolFailure("NOT_FOUND", "No such payment");
    return settled(
      await applyEvidence(ctx.db, charge, {
        source: "callback",
        dedupeKey: `${args.momo_ref}:${args.provider_txn_id}`,
        outcome: CALLBACK_STATUS[args.status],
        amount: args.amount,
        providerTxnId: args.provider_txn_id,
        payload: {
          status: args.status,
          amount: args.amount,
          payer_phone: args.payer_phone ?? null,
        },
      }, ctx.services.get(MESSAGING)),
    );
  },
});

// Open charges an SMS may settle: pending and not yet expired (a little grace:
// the SMS of a payment made just before expiry arrives after it).
const OPEN_SQL = `
  select id, momo_ref as "momoRef", amount::float8 as amount, payer_phone as "payerPhone"
  from public.payments
  where org_id = $1 and status = 'pending' and expires_at > now() - interval '10 minutes'
  order by created_at
  limit 1000`;

/** The `payment_record_sms` tool. */
export const paymentRecordSms = defineTool({
  name: "payment_record_sms",
  title: "Record a forwarded MoMo confirmation SMS",
  description: "Store a merchant phone's forwarded MTN/Airtel confirmation SMS, read it and " +
    "settle the one open charge it matches; anything else goes to staff. Called by the " +
    "payments function.",
  category: "payments",
  input: z.object({
    sender: text({ min: 1, max: 40 }),
    text: text({ min: 1, max: 2000, multiline: true }),
    received_at: z.iso.datetime({ offset: true }),
    device_id: text({ min: 1, max: 100 }).optional(),
  }),
  output: z.object({
    sms_id: z.uuid(),
    match_status: z.enum(["matched", "unmatched", "ambiguous", "unparsed", "resolved", "ignored"]),
    momo_ref: z.string().nullable(),
    duplicate: z.boolean(),
  }),
  examples: [{
    input: {
      sender: "M-Money",
      text: "You have received 5000 RWF from ALINE U (*********001) on your mobile money account " +
        "at 2026-11-23 10:15:01. Message from sender: PAY-7K3QX2. Financial Transaction Id: 1234567890.",
      received_at: "2026-11-23T08:15:05Z",
    },
  }],
  sideEffects: "writes.payment",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const digest = await sha256Hex(args.text);
    const [seen] = await ctx.db.query<
      { id: string; match_status: string; momo_ref: string | null }
    >(
      `select s.id, s.match_status, p.momo_ref from public.sms_inbox s
       left join public.payments p on p.id = s.payment_id
       where s.org_id = $1 and s.text_sha256 = $2`,
      [orgId, digest],
    );
    if (seen) {
      return {
        sms_id: seen.id,
        match_status: seen.match_status as "matched",
        momo_ref: seen.momo_ref,
        duplicate: true,
      };
    }
    const parsed = parseMomoSms(args.text, { sender: args.sender });
    let status: "matched" | "unmatched" | "ambiguous" | "unparsed" = "unparsed";
    let charge: ChargeRow | null = null;
    let note = "the text could not be read as a payment received";
    if (parsed) {
      const open = (await ctx.db.query<OpenCharge>(OPEN_SQL, [orgId]))
        .map((row) => ({ ...row, amount: Number(row.amount) }));
      const match = matchCharge(parsed, open);
      if (match.kind === "matched") {
        charge = await lockCharge(ctx.db, match.charge.momoRef, orgId);
        status = charge ? "matched" : "unmatched";
      } else if (match.kind === "ambiguous") {
        status = "ambiguous";
        note = `it fits ${match.candidates.length} open charges: ${
          match.candidates.map((c) => c.momoRef).join(", ")
        }`;
      } else {
        status = "unmatched";
        note = match.reason === "amount_mismatch"
          ? "its reference names an open charge of another amount"
          : match.reason === "payer_unknown"
          ? "it names no reference and no readable payer number"
          : "no open charge has this amount and payer";
      }
    }
    const [row] = await ctx.db.query<{ id: string }>(
      `insert into public.sms_inbox
         (org_id, device_id, sender, raw_text, text_sha256, provider, parsed, amount,
          provider_txn_id, match_status, payment_id, received_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [
        orgId,
        args.device_id ?? "unknown",
        args.sender,
        args.text,
        digest,
        parsed?.provider ?? null,
        parsed,
        parsed?.amount ?? null,
        parsed?.transactionId?.slice(0, 64) ?? null,
        status,
        charge?.id ?? null,
        args.received_at,
      ],
    );
    if (charge && parsed) {
      await applyEvidence(ctx.db, charge, {
        source: "sms",
        dedupeKey: parsed.transactionId ? `txn:${parsed.transactionId}` : `sms:${digest}`,
        outcome: "settled",
        amount: parsed.amount,
        providerTxnId: parsed.transactionId?.slice(0, 64) ?? null,
        payload: { sms_id: row.id, sender: args.sender },
      }, ctx.services.get(MESSAGING));
      return {
        sms_id: row.id,
        match_status: "matched" as const,
        momo_ref: charge.momo_ref,
        duplicate: false,
      };
    }
    await paymentTicket(ctx.db, {
      orgId,
      reason: `MoMo SMS ${status}: a person must match it`,
      summary:
        `From ${args.sender} (device ${
          args.device_id ?? "unknown"
        }) at ${args.received_at}: ${note}. ` +
        `Nothing was settled. Text: ${args.text}`,
    });
    return { sms_id: row.id, match_status: status, momo_ref: null, duplicate: false };
  },
});

/** Who may say `PAID <ref>` for a charge: the payee's numbers, and the venue owner's profile. */
const PAYEE_SQL = `
  select pr.id as actor_id
  from public.payments p
  left join public.orders o on o.id = p.order_id and o.org_id = p.org_id
  left join public.businesses b on b.id = o.business_id and b.org_id = o.org_id
  left join public.ride_requests r on r.id = p.ride_request_id and r.org_id = p.org_id
  left join public.drivers d on d.id = r.matched_driver_id and d.org_id = r.org_id
  left join public.profiles owner on owner.id = b.owner_user_id
  join public.profiles pr on pr.phone = '+' || $2::text
  where p.momo_ref = $1 and ($3::uuid is null or p.org_id = $3::uuid)
    and p.created_at > now() - interval '7 days'
    and ('+' || $2::text) in (
      p.payee_phone, b.momo_phone, b.phone, '+' || b.owner_whatsapp, owner.phone, d.phone)`;

/**
 * The profile of the payee who may confirm this charge from this WhatsApp
 * id, or null (not the payee, no such recent charge, or no profile to
 * record as the confirmer).
 */
export async function payeeActor(
  db: { query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> },
  momoRefValue: string,
  waId: string,
  orgId?: string,
): Promise<string | null> {
  const [row] = await db.query<{ actor_id: string }>(PAYEE_SQL, [
    momoRefValue,
    waId,
    orgId ?? null,
  ]);
  return row?.actor_id ?? null;
}

/** The `payment_confirm_by_payee` tool. */
export const paymentConfirmByPayee = defineTool({
  name: "payment_confirm_by_payee",
  title: "Confirm a payment as its payee",
  description: "A vendor, driver or person paid says PAID <ref> on WhatsApp: the charge is " +
    "settled as confirmed by them, both sides are told. Called by the WhatsApp channel.",
  category: "payments",
  input: z.object({
    momo_ref: momoRef,
    phone: e164Phone().describe("The sender's WhatsApp number."),
    whatsapp_message_id: text({ min: 1, max: 256 }),
  }),
  output: settledOutput,
  examples: [{
    input: {
      momo_ref: "PAY-7K3QX2",
      phone: "+250788000005",
      whatsapp_message_id: "wamid.X",
    },
  }],
  sideEffects: "writes.payment",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const waId = toWaId(args.phone);
    const actor = await payeeActor(ctx.db, args.momo_ref, waId, ctx.org_id ?? undefined);
    // A stranger learns nothing about the charge.
    if (!actor) throw new ToolFailure("NOT_FOUND", "No such payment");
    const charge = await lockCharge(ctx.db, args.momo_ref, ctx.org_id ?? undefined);
    if (!charge) throw new ToolFailure("NOT_FOUND", "No such payment");
    // The confirmer is recorded on the charge, and a person a row names is a member of its org
    // (the schema checks it). A payee who never wrote to this number before (someone paid by a
    // customer) becomes its customer here, as anyone who writes to it does in a conversation.
    await ctx.db.query(
      `insert into public.org_members (org_id, user_id, role) values ($1, $2, 'customer')
       on conflict do nothing`,
      [charge.org_id, actor],
    );
    const outcome = await applyEvidence(ctx.db, charge, {
      source: "vendor",
      dedupeKey: `${charge.momo_ref}:settled`,
      outcome: "settled",
      actorUserId: actor,
      payload: { phone: `+${waId}`, wamid: args.whatsapp_message_id },
    }, ctx.services.get(MESSAGING));
    const [profile] = await ctx.db.query<{ locale: "en" | "rw" | "fr" }>(
      "select locale from public.profiles where id = $1",
      [actor],
    );
    const lang = profile?.locale ?? charge.language;
    const reply = outcome.kind === "applied"
      ? say("vendorConfirmed", lang, {
        ref: charge.momo_ref,
        amount: formatRwf(charge.amount, lang),
        payer: charge.payer_name ?? localPhone(charge.payer_phone),
        what: charge.order_no ? say("payeeOrder", lang, { order: charge.order_no }) : "",
      })
      : say("vendorAlready", lang, {
        ref: charge.momo_ref,
        status: paymentStateName(outcome.status, lang),
      });
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId: charge.org_id,
      to: waId,
      message: textOut(reply),
      idempotencyKey: `paid:${args.whatsapp_message_id}`.slice(0, 255),
    });
    return settled(outcome);
  },
});

/** The `payment_expire_due` tool. */
export const paymentExpireDue = defineTool({
  name: "payment_expire_due",
  title: "Expire unpaid charges",
  description: "Marks the org's pending charges past their expiry as EXPIRED and tells each " +
    "payer once. Run by the payments sweep.",
  category: "payments",
  input: z.object({ limit: int({ min: 1, max: 500 }).default(100) }),
  output: z.object({ expired: z.array(z.string()) }),
  examples: [{ input: { limit: 100 } }],
  sideEffects: "writes.payment",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 1000,
  async execute(args, ctx) {
    // Skip charges another sweep (or a settlement) holds: they are decided there.
    const due = await ctx.db.query<{ momo_ref: string }>(
      `select momo_ref from public.payments
       where org_id = $1 and status = 'pending' and expires_at <= now()
       order by expires_at limit $2 for update skip locked`,
      [ctx.org_id, args.limit],
    );
    const expired: string[] = [];
    for (const { momo_ref } of due) {
      const charge = await lockCharge(ctx.db, momo_ref, ctx.org_id ?? undefined);
      if (!charge || charge.status !== "pending") continue;
      const outcome = await applyEvidence(ctx.db, charge, {
        source: "sweep",
        dedupeKey: `${momo_ref}:expired`,
        outcome: "expired",
      }, ctx.services.get(MESSAGING));
      if (outcome.kind === "applied") expired.push(momo_ref);
    }
    return { expired };
  },
});

/** The `payment_confirm_by_staff` tool. */
export const paymentConfirmByStaff = defineTool({
  name: "payment_confirm_by_staff",
  title: "Confirm a payment as staff",
  description: 'A staff member saw the money arrive (a payment ticket\'s "Confirm payment" in ' +
    "the Admin Inbox): the charge is settled as confirmed by them, and the payer and the payee " +
    "are told once. Only staff of the charge's org may; confirming again changes nothing.",
  category: "payments",
  input: z.object({ momo_ref: momoRef }),
  output: z.object({
    momo_ref: z.string(),
    status: z.string().describe("The charge's status after the confirmation, e.g. settled."),
  }),
  examples: [{
    input: { momo_ref: "PAY-7K3QX2" },
    output: { momo_ref: "PAY-7K3QX2", status: "settled" },
  }],
  sideEffects: "writes.payment",
  // Runs as the staff member: private.confirm_payment_manually settles (it checks the caller is
  // staff of the charge's org and records who confirmed), and the parties' messages are queued
  // under the wa_outbox policy that lets staff write to their own org's contacts only.
  auth: "staff",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    if (!ctx.user_id) throw new ToolFailure("AUTH_ERROR", "Confirmations come from a person");
    // Another org's charge is as if it did not exist: its staff confirm it in their own org.
    if (!await readCharge(ctx.db, args.momo_ref, ctx.org_id ?? undefined)) {
      throw new ToolFailure("NOT_FOUND", "No such payment");
    }
    const [row] = await ctx.db.query<{ status: string }>(
      "select private.confirm_payment_manually($1, 'staff') as status",
      [args.momo_ref],
    );
    // The first confirmation tells both sides; outbox keys make a repeat tell nobody twice.
    if (row.status === "settled") {
      const charge = await readCharge(ctx.db, args.momo_ref, ctx.org_id ?? undefined);
      if (charge) await notifyParties(ctx.db, charge, ctx.services.get(MESSAGING));
    }
    return { momo_ref: args.momo_ref, status: row.status };
  },
});
