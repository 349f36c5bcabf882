/**
 * `momo_charge` (the tool catalog's payments section): creates a pending MoMo charge and answers with
 * the USSD code that pays it, as a `tel:` link (`#` written `%23`) and as
 * plain text (iOS will not dial such links), its `momo_ref` and when it
 * expires. A link is not a payment: the charge settles only on evidence
 * (a signed callback, a forwarded SMS, the vendor or staff confirming).
 *
 * Who is paid: an order's venue, a ride's driver, the number in
 * `payee_phone`, or, when the call names none of them (the tool catalog's own call),
 * the tenant itself, on the merchant account kept on its row
 * (`orgs.momo_merchant_code` or `orgs.momo_merchant_phone`).
 *
 * Idempotency: the pipeline's ledger replays a retried call (same request
 * key); the charge's own `idempotency_key` is the payment's natural key
 * (`payments` is unique per org and key), so the same key from a later
 * request returns the same charge, and the same key with another payload is
 * `CONFLICT`, however long ago it was used. A charge for an order or a ride
 * that already has one waiting is `CONFLICT` too, with the waiting charge
 * (the caller's own) in `details.pending`, so a second "Pay" shows its code.
 *
 * @module
 */
import { formatRwf } from "@shared/capabilities/format/mod.ts";
import { z } from "zod";
import { e164Phone, id, payload, text, ToolFailure } from "@shared/contract/mod.ts";
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import type { Queryable } from "@shared/db/types.ts";
import { canonicalJson } from "@shared/runtime/canonical.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { PAYMENTS_CONFIG } from "./config.ts";
import { type MerchantAccountRow, merchantPayee } from "./merchant_account.ts";
import { localPhone, say } from "./texts.ts";
import { momoUssd } from "./ussd.ts";

// The database's ceiling on one payment; the configured cap (MOMO_MAX_AMOUNT_RWF) is checked below.
const CEILING_RWF = 10_000_000;
const REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * Who an order's charge pays, as the payer reads it: the venue by name
 * beside the order's number ("Café Nyamirambo (order A-1001)"), read as
 * the caller, so an order the caller cannot see names nothing and the
 * memo stands in (the call itself is then refused as NOT_FOUND).
 */
async function orderPayee(
  read: Queryable,
  orderId: string,
  memo: string,
  lang: Language,
): Promise<string> {
  const [order] = await read.query<{ venue: string; order_no: string | null }>(
    `select b.name as venue, o.order_no
     from public.orders o join public.businesses b on b.id = o.business_id
     where o.id = $1`,
    [orderId],
  );
  if (!order) return memo;
  return order.order_no
    ? say("payeeVenue", lang, { venue: order.venue, no: order.order_no })
    : order.venue;
}

/**
 * The trip a ride charge's memo names, without the label a caller put before
 * it: the memo is stored as written for staff ("Ride Kimironko - Nyabugogo"),
 * while the person reads the trip inside their own language's words.
 */
function rideTrip(memo: string | undefined): string {
  return (memo ?? "").replace(/^\s*(ride|trip|course|urugendo)\b\s*(from\b|de\b)?[\s:-]*/iu, "")
    .trim();
}

const input = z.object({
  amount: z.int("must be a whole number of francs").positive("must be more than 0 RWF")
    .max(CEILING_RWF, `must be at most ${CEILING_RWF} RWF`)
    .describe("Whole RWF, above zero and at most the configured cap."),
  currency: z.literal("RWF"),
  phone: e164Phone({ rwandanMobile: true }).optional().describe(
    "The payer's Rwandan MoMo number (07…, +2507… or 2507…); defaults to the user's own.",
  ),
  memo: text({ max: 140 }).describe("What it pays, shown to staff and in receipts."),
  idempotency_key: text({ min: 1, max: 255 }).describe(
    "Required: the same key returns the same charge; another payload under it is CONFLICT.",
  ),
  metadata: payload({ maxDepth: 4, maxSize: 2048 }).optional(),
  order_id: id().optional().describe("The order it pays: the venue is the payee."),
  ride_request_id: id().optional().describe("The ride it pays: the matched driver is the payee."),
  payee_phone: e164Phone({ rwandanMobile: true }).optional().describe(
    'The Rwandan MoMo number paid, for "pay 5000 to 0788123456". ' +
      "With no order_id, ride_request_id or payee_phone, the business itself is paid.",
  ),
  payee_name: text({ min: 1, max: 80 }).optional().describe(
    "Whose number payee_phone is (a landlord, the insurance desk), shown beside the number: " +
      "a bare number to pay reads like a scam.",
  ),
  language: z.enum(LANGUAGES).optional().describe(
    "The payer's language for later messages; defaults to their profile's.",
  ),
}).superRefine((args, ctx) => {
  // None: the tenant's own merchant account is paid.
  const targets = [args.order_id, args.ride_request_id, args.payee_phone]
    .filter((value) => value !== undefined).length;
  if (targets > 1) {
    ctx.addIssue({
      code: "custom",
      path: ["payee_phone"],
      message: "give only one of order_id, ride_request_id and payee_phone",
    });
  }
  // A venue, a driver and the business are named from their own rows, never by the caller.
  if (args.payee_name !== undefined && args.payee_phone === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["payee_name"],
      message: "names the owner of payee_phone: give it only with payee_phone",
    });
  }
});

const output = z.object({
  payment_link: z.string().describe("tel: link that dials the USSD code (# written %23)."),
  ussd_code: z.string().describe("The same code as text, to copy (iOS will not dial the link)."),
  momo_ref: z.string(),
  amount: z.number(),
  currency: z.literal("RWF"),
  payee: z.string().describe("Who is paid: the venue, the driver, the number or the business."),
  expires_at: z.string(),
});

type Args = z.output<typeof input>;

interface StoredCharge {
  momo_ref: string;
  amount: number;
  payer_phone: string;
  payee_phone: string | null;
  payee_merchant_code: string | null;
  memo: string | null;
  metadata: Record<string, unknown>;
  order_id: string | null;
  ride_request_id: string | null;
  expires_at: string;
  payee_name: string | null;
}

interface Payee {
  label: string | null;
  payee_name: string | null;
  merchant_code: string | null;
  phone: string | null;
  state: string;
  payment_status: string;
  total: number | null;
}

function newRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `PAY-${Array.from(bytes, (byte) => REF_ALPHABET[byte % REF_ALPHABET.length]).join("")}`;
}

function answer(stored: StoredCharge) {
  const ussd = momoUssd({
    payee: stored.payee_merchant_code
      ? { kind: "merchant", merchantCode: stored.payee_merchant_code }
      : { kind: "phone", phone: stored.payee_phone! },
    amount: stored.amount,
  });
  return {
    payment_link: ussd.telLink,
    ussd_code: ussd.code,
    momo_ref: stored.momo_ref,
    amount: stored.amount,
    currency: "RWF" as const,
    payee: stored.payee_name ?? stored.payee_phone ?? stored.payee_merchant_code!,
    expires_at: stored.expires_at,
  };
}

function samePayload(stored: StoredCharge, args: Args, payer: string): boolean {
  // A venue, a driver or the tenant have their name kept; a number paid the name it was given.
  const samePayee = args.order_id || args.ride_request_id ||
    (args.payee_phone === undefined
      ? stored.payee_name !== null
      : stored.payee_phone === args.payee_phone &&
        stored.payee_name === (args.payee_name ?? null));
  return stored.amount === args.amount && stored.payer_phone === payer &&
    (stored.memo ?? "") === args.memo && stored.order_id === (args.order_id ?? null) &&
    stored.ride_request_id === (args.ride_request_id ?? null) && Boolean(samePayee) &&
    canonicalJson(withoutPayee(stored.metadata)) === canonicalJson(withoutPayee(args.metadata));
}

// The payee's name is kept beside the caller's metadata for later messages: one smuggled in the
// metadata is dropped (only the `payee_name` argument, always shown beside its number, names a
// number), and never compared.
function withoutPayee(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const { payee_name: _payee, ...rest } = metadata ?? {};
  return rest;
}

// The tenant's own account (RLS: members read their org's row).
const TENANT_ACCOUNT_SQL = `
  select slug, name, momo_merchant_code, momo_merchant_phone from public.orgs where id = $1`;

const STORED_SQL = `
  select momo_ref, amount::float8 as amount, payer_phone, payee_phone, payee_merchant_code, memo,
         metadata, order_id, ride_request_id, to_jsonb(expires_at) #>> '{}' as expires_at,
         metadata->>'payee_name' as payee_name
  from public.payments where org_id = $1 and idempotency_key = $2`;

// The caller's own charge still waiting for this order or ride (RLS: the payer's, the
// creator's or staff's), not yet past its expiry.
const WAITING_SQL = `
  select momo_ref, amount::float8 as amount, payer_phone, payee_phone, payee_merchant_code, memo,
         metadata, order_id, ride_request_id, to_jsonb(expires_at) #>> '{}' as expires_at,
         metadata->>'payee_name' as payee_name
  from public.payments
  where org_id = $1 and status = 'pending' and expires_at > now()
    and (order_id = $2::uuid or ride_request_id = $3::uuid)
    and (payer_id = (select auth.uid()) or created_by = (select auth.uid()))
  order by created_at desc limit 1`;

/** The `momo_charge` tool. */
export const momoCharge = defineTool({
  name: "momo_charge",
  title: "Ask for a MoMo payment",
  description: "Create a Mobile Money (MTN MoMo USSD) charge for an order, a ride, a phone " +
    "number or, naming none of them, the business itself, and get the code the payer dials. " +
    "The payment settles only when it is confirmed; needs the user's confirmation.",
  category: "payments",
  input,
  output,
  examples: [{
    description: "Pay the business itself (the tool catalog's call)",
    input: {
      amount: 1000,
      currency: "RWF",
      phone: "+250788123456",
      memo: "Test payment",
      idempotency_key: "test-123",
    },
  }, {
    description: "Pay a person",
    input: {
      amount: 5000,
      currency: "RWF",
      phone: "0781234567",
      memo: "Rent share",
      idempotency_key: "pay-7f0c2a",
      payee_phone: "0788123456",
    },
  }, {
    description: "Pay an order (the venue is paid)",
    input: {
      amount: 4500,
      currency: "RWF",
      phone: "+250788000001",
      memo: "Order A-1042",
      idempotency_key: "order-a1042-pay",
      order_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
    },
  }],
  sideEffects: "writes.payment",
  auth: "user",
  confirmRequired: true,
  openWorld: true,
  latencyBudgetMs: 400,
  // Each charge asks a phone to approve a payment: one caller cannot flood a number with them.
  rateLimit: { perUser: { limit: 10, windowSec: 600 } },
  confirmSummary: async (args, { tenantName, read }) => {
    const lang = args.language ?? "en";
    return say("confirmPay", lang, {
      amount: formatRwf(args.amount, lang),
      payee: args.payee_phone
        ? args.payee_name
          ? `${args.payee_name} (${localPhone(args.payee_phone)})`
          : localPhone(args.payee_phone)
        : args.ride_request_id
        ? say("payeeRide", lang, { trip: rideTrip(args.memo) })
        : args.order_id
        ? await orderPayee(read, args.order_id, args.memo, lang)
        : tenantName,
      phone: args.phone ? localPhone(args.phone) : "WhatsApp",
    });
  },
  async execute(args, ctx) {
    const config = ctx.services.get(PAYMENTS_CONFIG);
    if (args.amount > config.maxAmountRwf) {
      const message = `must be at most ${config.maxAmountRwf} RWF`;
      throw new ToolFailure(
        "VALIDATION_ERROR",
        `Invalid request: amount ${message}`,
        { fields: [{ path: "amount", message }] },
      );
    }
    const [profile] = await ctx.db.query<{ locale: string; phone: string | null }>(
      "select locale, phone from public.profiles where id = (select auth.uid())",
    );
    const payer = args.phone ?? profile?.phone ?? "";
    if (!/^\+2507[0-9]{8}$/.test(payer)) {
      const message = "must be a Rwandan mobile like +250788123456 (the user's own number is not)";
      throw new ToolFailure("VALIDATION_ERROR", `Invalid request: phone ${message}`, {
        fields: [{ path: "phone", message }],
      });
    }
    // The charge's own key: a later request with it gets the same charge back.
    const [stored] = await ctx.db.query<StoredCharge>(STORED_SQL, [
      ctx.org_id,
      args.idempotency_key,
    ]);
    if (stored) {
      if (!samePayload({ ...stored, amount: Number(stored.amount) }, args, payer)) {
        throw new ToolFailure(
          "CONFLICT",
          "This idempotency key was already used for a different payment",
        );
      }
      return answer({ ...stored, amount: Number(stored.amount) });
    }

    let payeeName: string | null = args.payee_name ?? null;
    let merchantCode: string | null = null;
    let payeePhone: string | null = args.payee_phone ?? null;
    if (!args.order_id && !args.ride_request_id && !args.payee_phone) {
      const [tenant] = await ctx.db.query<MerchantAccountRow & { name: string }>(
        TENANT_ACCOUNT_SQL,
        [ctx.org_id],
      );
      // The columns' checks hold merchantPayee's rules: a throw here is our failure.
      const account = tenant ? merchantPayee(tenant) : null;
      if (!account) {
        const message = `${
          tenant?.name ?? "This business"
        } has no MoMo merchant account set up: say who is paid (order_id, ride_request_id or payee_phone)`;
        throw new ToolFailure("VALIDATION_ERROR", `Invalid request: ${message}`, {
          fields: [{ path: "payee_phone", message }],
        });
      }
      payeeName = tenant.name;
      merchantCode = account.kind === "merchant" ? account.merchantCode : null;
      payeePhone = account.kind === "phone" ? account.phone : null;
    }
    if (args.order_id || args.ride_request_id) {
      const [payee] = await ctx.db.query<Payee>(
        "select * from private.charge_payee($1, $2, $3)",
        [ctx.org_id, args.order_id ?? null, args.ride_request_id ?? null],
      );
      const what = args.order_id ? "order" : "ride";
      if (!payee) throw new ToolFailure("NOT_FOUND", `No such ${what}`);
      const name = payee.label ?? what;
      if (payee.payment_status === "settled") {
        throw new ToolFailure("CONFLICT", `${name} is already paid`);
      }
      if (payee.payment_status === "pending") {
        // A second "Pay" (another message, so another key) must not make a second charge:
        // the caller gets the waiting one back in the details, when it is theirs to see (RLS).
        const [waiting] = await ctx.db.query<StoredCharge>(WAITING_SQL, [
          ctx.org_id,
          args.order_id ?? null,
          args.ride_request_id ?? null,
        ]);
        throw new ToolFailure("CONFLICT", `A payment for ${name} is already waiting`, {
          ...(waiting
            ? { details: { pending: answer({ ...waiting, amount: Number(waiting.amount) }) } }
            : {}),
        });
      }
      if (["cancelled", "expired", "delivered", "completed"].includes(payee.state)) {
        throw new ToolFailure("CONFLICT", `${name} is ${payee.state}: it cannot be paid`);
      }
      if (payee.total !== null && Number(payee.total) !== args.amount && args.order_id) {
        const message = `must be the order's total, ${Number(payee.total)} RWF`;
        throw new ToolFailure("VALIDATION_ERROR", `Invalid request: amount ${message}`, {
          fields: [{ path: "amount", message }],
        });
      }
      merchantCode = payee.merchant_code;
      payeePhone = merchantCode ? null : payee.phone;
      payeeName = payee.payee_name;
      if (!merchantCode && !(payeePhone && /^\+2507[0-9]{8}$/.test(payeePhone))) {
        throw new ToolFailure(
          "CONFLICT",
          `${payeeName ?? name} takes no Mobile Money payments yet`,
        );
      }
    }

    const language = args.language ?? profile?.locale ?? "en";
    const expiresAt = new Date(
      ctx.services.now().getTime() + config.chargeTtlMinutes * 60_000,
    ).toISOString();
    const metadata = {
      ...withoutPayee(args.metadata),
      ...(payeeName ? { payee_name: payeeName } : {}),
    };
    const [created] = await ctx.db.query<StoredCharge>(
      `insert into public.payments
         (org_id, created_by, payer_id, payer_phone, payee_merchant_code, payee_phone, amount,
          momo_ref, memo, idempotency_key, expires_at, order_id, ride_request_id, trace_id,
          metadata, language, agent_id)
       values ($1, (select auth.uid()), (select auth.uid()), $2, $3, $4, $5, $6, $7, $8, $9, $10,
               $11, $12, $13, $14, $15)
       returning momo_ref, amount::float8 as amount, payer_phone, payee_phone, payee_merchant_code,
                 memo, metadata, order_id, ride_request_id,
                 to_jsonb(expires_at) #>> '{}' as expires_at, metadata->>'payee_name' as payee_name`,
      [
        ctx.org_id,
        payer,
        merchantCode,
        payeePhone,
        args.amount,
        newRef(),
        args.memo,
        args.idempotency_key,
        expiresAt,
        args.order_id ?? null,
        args.ride_request_id ?? null,
        ctx.trace_id,
        metadata,
        language,
        // Whose funnel the charge pays into (funnel_paid, written when it settles).
        ctx.agent_id ?? null,
      ],
    );
    return answer({ ...created, amount: Number(created.amount) });
  },
});
