/**
 * `insurance_certificates_sweep`: how the Insurance agent learns a premium
 * was paid. The charge the flow asks for (`momo_charge`) carries
 * `metadata.purpose = "insurance_certificate"` and the quote it pays; the
 * payments pack settles it on evidence (callback, SMS, staff) and tells the
 * payer. This sweep, run by the WhatsApp worker's periodic sweep
 * (`Pack.sweeps`), finds such charges settled and not yet answered with a
 * certificate, renders the certificate (`insurance_certificate` template)
 * from the stored quote (insurer, cover, use, period, premium) and the
 * vehicle the customer confirmed, keeps it in the `documents` bucket, and
 * sends it on WhatsApp as a document plus its signed link in text with the
 * link's expiry (clients that do not open documents still get it).
 *
 * Exactly once: the text's outbox key `insurance-certificate:<momo_ref>:link`
 * marks a charge done (the outbox key is unique); the PDF's bytes and path
 * are deterministic, so a sweep that died half-way renders and stores the
 * same file again. A charge that cannot be certified (the quote is not the
 * payer's, the amount differs, the data is incomplete) raises a staff ticket
 * and the customer is told a person will send the certificate: never silence.
 *
 * @module
 */
import { z } from "zod";
import { languageFromLocale } from "@shared/contract/language.ts";
import { ToolFailure } from "@shared/contract/result.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import {
  DocumentInputError,
  renderDocument,
} from "@shared/capabilities/documents/render_document.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { FILE_STORE, MAX_SIGNED_URL_SECONDS } from "@shared/storage/file_store.ts";
import { storeDocument } from "@shared/capabilities/documents/store_document.ts";
import {
  documentOut,
  MESSAGING,
  type MessagingPort,
  templateOut,
  textOut,
} from "@shared/capabilities/messaging/mod.ts";
import { canonicalJson } from "@shared/runtime/canonical.ts";
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { say } from "./texts.ts";

/** How long a certificate's link lasts: the longest signed URL (30 days). Save the PDF. */
export const CERTIFICATE_LINK_SECONDS = MAX_SIGNED_URL_SECONDS;

/** At most this many certificates per sweep: the next sweep takes the rest. */
const BATCH = 20;

const KIGALI_OFFSET_MS = 2 * 3600_000;

interface DueRow {
  payment_id: string;
  momo_ref: string;
  payer_id: string | null;
  payer_phone: string;
  payer_name: string | null;
  language: string;
  amount: number;
  settled_at: string;
  metadata: Record<string, unknown>;
  quote_id: string | null;
  quote_owner: string | null;
  premium_rwf: number | null;
  cover: string | null;
  usage: string | null;
  coverage_days: number | null;
  inputs: { vehicle?: { make?: string; model?: string; year?: number; plate?: string } } | null;
  insurer: string | null;
}

// Settled insurance charges not yet answered; the quote joined only when it is the payer's.
const DUE_SQL = `
  select p.id as payment_id, p.momo_ref, p.payer_id, p.payer_phone, pr.display_name as payer_name,
         p.language, p.amount::float8 as amount, to_jsonb(p.settled_at) #>> '{}' as settled_at,
         p.metadata, q.id as quote_id, q.customer_id as quote_owner, q.premium_rwf, q.cover,
         q.usage, q.coverage_days, q.inputs, i.name as insurer
  from public.payments p
  left join public.profiles pr on pr.id = p.payer_id
  left join public.insurance_quotes q
    on q.org_id = p.org_id and q.id::text = p.metadata ->> 'quote_id'
  left join public.insurers i on i.org_id = q.org_id and i.id = q.insurer_id
  where p.org_id = $1 and p.status = 'settled'
    and p.metadata ->> 'purpose' = 'insurance_certificate'
    and not exists (
      select 1 from public.wa_outbox o where o.idempotency_key = 'insurance-certificate:' || p.momo_ref || ':link'
    )
  order by p.settled_at, p.id
  limit ${BATCH}`;

const DUE_SQL_LOCKED = `${DUE_SQL} for update of p skip locked`;

/** A charge's certificate, rendered and stored; or why a person must issue it. */
type Prepared =
  | { data: string; url: string; expiresAt: Date; size: number }
  | { why: string };

/** A date in Kigali (`2026-11-24`) for an instant. */
function kigaliDate(instant: Date): string {
  return new Date(instant.getTime() + KIGALI_OFFSET_MS).toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** What a certificate shows: the template's data. */
export type CertificateData = {
  certificate_no: string;
  insurer: string;
  insured: { name: string; phone: string };
  vehicle: { plate: string; make: string; model: string; year: unknown; chassis?: string };
  usage: DueRow["usage"];
  cover: DueRow["cover"];
  period: { from: string; to: string };
  premium: number;
  issued_at: string;
};

/** The certificate's data, or why the charge cannot be certified automatically. */
export function certificateData(row: DueRow): { data: CertificateData } | { why: string } {
  if (!row.quote_id || !row.insurer || row.premium_rwf === null) {
    return { why: "the charge names no stored quote" };
  }
  if (row.quote_owner !== row.payer_id) return { why: "the quote belongs to another customer" };
  if (Number(row.amount) !== Number(row.premium_rwf)) {
    const paid = formatMoney(Number(row.amount), "en");
    return { why: `${paid} paid for a ${formatMoney(Number(row.premium_rwf), "en")} premium` };
  }
  const confirmed = (row.metadata.vehicle ?? {}) as Record<string, unknown>;
  const priced = row.inputs?.vehicle ?? {};
  const from = kigaliDate(new Date(row.settled_at));
  const vin = text(confirmed.vin);
  return {
    data: {
      certificate_no: `EMO-${from.slice(0, 4)}-${row.momo_ref.replace(/^PAY-/, "")}`,
      insurer: row.insurer,
      insured: {
        name: text(row.metadata.insured_name) ?? row.payer_name ?? row.payer_phone,
        phone: row.payer_phone,
      },
      vehicle: {
        // What was priced is what is insured; the plate is the one the customer confirmed.
        plate: text(priced.plate) ?? text(confirmed.plate) ?? "",
        make: priced.make ?? text(confirmed.make) ?? "",
        model: priced.model ?? text(confirmed.model) ?? "",
        year: priced.year ?? confirmed.year,
        ...(vin && vin.length <= 30 ? { chassis: vin } : {}),
      },
      usage: row.usage,
      cover: row.cover,
      period: { from, to: addDays(from, (row.coverage_days ?? 1) - 1) },
      premium: Number(row.premium_rwf),
      issued_at: from,
    },
  };
}

const output = z.object({
  issued: z.array(z.object({ momo_ref: z.string(), certificate_no: z.string() })),
  to_staff: z.array(z.object({ momo_ref: z.string(), why: z.string() })),
});

async function toStaff(
  db: Queryable,
  messaging: MessagingPort,
  orgId: string,
  row: DueRow,
  why: string,
): Promise<void> {
  await db.query(
    `insert into public.staff_tickets
       (org_id, channel, reason, summary, priority, payment_id, requester_user_id)
     values ($1, 'inbox', $2, $3, 'high', $4, $5)`,
    [
      orgId,
      "Insurance certificate to issue by hand",
      `${row.momo_ref} is paid (${
        formatMoney(Number(row.amount), "en")
      }) but its certificate could not be issued: ${why}. ` +
      `Quote ${row.quote_id ?? "?"}, insurer ${row.insurer ?? "?"}, vehicle ${
        JSON.stringify(row.metadata.vehicle ?? {})
      }.`.slice(0, 2000),
      row.payment_id,
      row.payer_id,
    ],
  );
  const lang = languageFromLocale(row.language);
  await messaging.send(db, {
    orgId,
    to: row.payer_phone,
    message: textOut(say("certificateByHand", lang, { ref: row.momo_ref })),
    idempotencyKey: `insurance-certificate:${row.momo_ref}:link`,
  });
}

/** The `insurance_certificates_sweep` tool. */
export const insuranceCertificatesSweep = defineTool({
  name: "insurance_certificates_sweep",
  title: "Send paid insurance certificates",
  description: "Issues the motor insurance certificate of every insurance premium paid since the " +
    "last sweep and sends it to the customer on WhatsApp (PDF document and signed link). Run by " +
    "the WhatsApp worker's sweep.",
  category: "insurance",
  input: z.strictObject({}),
  output,
  examples: [{ input: {} }],
  sideEffects: "writes.document",
  auth: "service",
  internal: true,
  latencyBudgetMs: 5000,
  // Rendering and Storage run in `prepare`, before the transaction: no connection is held
  // while the PDF is drawn and uploaded (PGlite's only one would wait on itself).
  async prepare(_args, ctx): Promise<Map<string, Prepared>> {
    const orgId = ctx.org_id;
    if (!orgId) throw new ToolFailure("AUTH_ERROR", "The sweep runs on one org");
    const files = ctx.services.get(FILE_STORE);
    const prepared = new Map<string, Prepared>();
    for (const row of await ctx.read.query<DueRow>(DUE_SQL, [orgId])) {
      const built = certificateData(row);
      if ("why" in built) {
        prepared.set(row.momo_ref, { why: built.why });
        continue;
      }
      let document;
      try {
        document = await renderDocument({
          templateId: "insurance_certificate",
          data: built.data,
          language: languageFromLocale(row.language),
          renderPdf: ctx.services.get(PDF_RENDERER),
        });
      } catch (error) {
        if (!(error instanceof DocumentInputError)) throw error;
        const fields = error.fields.map((field) => field.path).join(", ");
        prepared.set(row.momo_ref, { why: `incomplete data (${fields})` });
        continue;
      }
      const link = await storeDocument(files, {
        orgId,
        document,
        linkSeconds: CERTIFICATE_LINK_SECONDS,
      });
      prepared.set(row.momo_ref, {
        data: canonicalJson(built.data),
        url: link.url,
        expiresAt: link.expiresAt,
        size: document.bytes.byteLength,
      });
    }
    return prepared;
  },
  async execute(_args, ctx) {
    const orgId = ctx.org_id;
    if (!orgId) throw new ToolFailure("AUTH_ERROR", "The sweep runs on one org");
    const prepared = ctx.prepared as Map<string, Prepared>;
    const messaging = ctx.services.get(MESSAGING);
    // Seen again under lock: a sweep running beside this one skips these charges.
    const rows = await ctx.db.query<DueRow>(DUE_SQL_LOCKED, [orgId]);
    const issued: Array<{ momo_ref: string; certificate_no: string }> = [];
    const toStaffRefs: Array<{ momo_ref: string; why: string }> = [];
    for (const row of rows) {
      // Settled after `prepare` read: the next sweep takes it.
      const ready = prepared.get(row.momo_ref);
      if (!ready) continue;
      if ("why" in ready) {
        await toStaff(ctx.db, messaging, orgId, row, ready.why);
        toStaffRefs.push({ momo_ref: row.momo_ref, why: ready.why });
        continue;
      }
      const built = certificateData(row);
      // What was rendered must still be what the database says, or the next sweep renders again.
      if ("why" in built || canonicalJson(built.data) !== ready.data) continue;
      const lang = languageFromLocale(row.language);
      const data = built.data;
      const filename = `insurance-certificate-${data.vehicle.plate.replaceAll(" ", "")}.pdf`;
      await messaging.send(ctx.db, {
        orgId,
        to: row.payer_phone,
        message: documentOut({
          link: ready.url,
          filename,
          caption: say("certificateCaption", lang, {
            insurer: row.insurer!,
            plate: data.vehicle.plate,
            from: data.period.from,
            to: data.period.to,
          }),
          file: { mimeType: "application/pdf", size: ready.size },
        }),
        // A premium paid after the customer's 24-hour window closed: the approved template
        // carries the same PDF as its header (docs/whatsapp_templates.md, document_ready).
        fallback: templateOut({
          name: "document_ready",
          language: lang,
          document: { link: ready.url, filename },
          parameters: [say("certificateName", lang)],
        }),
        idempotencyKey: `insurance-certificate:${row.momo_ref}:document`,
      });
      await messaging.send(ctx.db, {
        orgId,
        to: row.payer_phone,
        message: textOut(say("certificateLink", lang, {
          number: data.certificate_no,
          plate: data.vehicle.plate,
          insurer: row.insurer!,
          url: ready.url,
          expires: kigaliDate(ready.expiresAt),
        })),
        idempotencyKey: `insurance-certificate:${row.momo_ref}:link`,
      });
      issued.push({ momo_ref: row.momo_ref, certificate_no: data.certificate_no });
    }
    return { issued, to_staff: toStaffRefs };
  },
});
