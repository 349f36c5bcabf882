/**
 * `case_intake` (seed 000 F): files a client's legal case for the org's
 * lawyers. It records the case (category, summary, the client's name and
 * phone, their language), the documents they sent as references to the
 * files Storage keeps (`storage://media/<org>/<conversation>/<file>`), and
 * opens a staff ticket naming the case so it waits in the Admin Inbox. It
 * answers the case id and the human reference number (`LC-2026-000123`) the
 * database gave it, and the org's consultation fee when it charges one
 * (`legal_intake_settings`): the caller asks the client to pay it with
 * `momo_charge`, naming who is paid.
 *
 * It runs as the client under RLS (a client files and reads only their own
 * cases), in the pipeline's write transaction: a retry with the same key
 * replays the same case, a confirmation read-back comes first. Intake only:
 * nothing here judges the case.
 *
 * @module
 */
import { z } from "zod";
import { LANGUAGES } from "@shared/contract/language.ts";
import { e164Phone, text, ToolFailure } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { storageReference } from "@shared/capabilities/document_reading/mod.ts";
import { say } from "./texts.ts";

/** The kinds of case a client files, as `legal_cases.category` keeps them. */
export const CASE_CATEGORIES = [
  "land",
  "family",
  "labour",
  "tenancy",
  "contract",
  "debt",
  "business",
  "criminal",
  "notary",
  "other",
] as const;

/** A kind of case. */
export type CaseCategory = typeof CASE_CATEGORIES[number];

/** The most documents one case carries. */
export const MAX_CASE_DOCUMENTS = 10;

const input = z.object({
  category: z.enum(CASE_CATEGORIES).describe(
    "What the case is about: land, family, labour, tenancy, contract, debt, business, criminal, " +
      "notary or other.",
  ),
  summary: text({ min: 10, max: 2000, multiline: true }).describe(
    "What happened, in the client's own words (at least a sentence).",
  ),
  docs: z.array(text({ min: 1, max: 1100 })).max(MAX_CASE_DOCUMENTS).default([]).describe(
    "The documents the client sent, as Storage gave them: storage://media/<org>/<conversation>/<file>.",
  ),
  client_name: text({ min: 2, max: 120 }).describe("The client's full name."),
  client_phone: e164Phone().describe("The client's phone (E.164), e.g. their WhatsApp number."),
  language: z.enum(LANGUAGES).optional().describe(
    "The client's language for the case and its summary; defaults to their profile's.",
  ),
});

const output = z.object({
  case_id: z.uuid(),
  reference_number: z.string().regex(/^LC-[0-9]{4}-[0-9]{6,}$/),
  status: z.literal("new"),
  category: z.enum(CASE_CATEGORIES),
  filed_at: z.iso.datetime({ offset: true }),
  language: z.enum(LANGUAGES),
  documents: z.array(z.object({ bucket: z.string(), path: z.string() })),
  ticket_id: z.uuid().describe("The staff ticket in the Admin Inbox."),
  consultation_fee: z.object({
    amount: z.int().positive(),
    currency: z.literal("RWF"),
    payee_phone: z.string().optional().describe("The MoMo number paid; absent: the business."),
    payee_name: z.string().optional(),
  }).nullable().describe("What the org charges for a first consultation; null when nothing."),
});

type Args = z.output<typeof input>;

/** The documents named, each an object of the caller's org in Storage. */
function documentsOf(args: Args, orgId: string): Array<{ bucket: string; path: string }> {
  return args.docs.map((doc, index) => {
    const ref = storageReference(doc);
    if (!ref || ref.path.split("/")[0] !== orgId) {
      const message = "must be a file you sent us: storage://media/<org>/<conversation>/<file>";
      throw new ToolFailure("VALIDATION_ERROR", `Invalid request: docs[${index}] ${message}`, {
        fields: [{ path: `docs[${index}]`, message }],
      });
    }
    return ref;
  });
}

// Read as the caller: a client sees the files of their own conversations, staff their org's.
// Another client's file and a missing one answer alike.
async function checkVisible(
  db: Queryable,
  docs: Array<{ bucket: string; path: string }>,
): Promise<void> {
  for (const [index, doc] of docs.entries()) {
    const [found] = await db.query(
      "select 1 from storage.objects where bucket_id = $1 and name = $2",
      [doc.bucket, doc.path],
    );
    if (!found) {
      throw new ToolFailure("NOT_FOUND", `docs[${index}]: no such file`, {
        fields: [{ path: `docs[${index}]`, message: "no such file" }],
      });
    }
  }
}

function staffSummary(args: Args, reference: string, docs: number, fee: number | null): string {
  return [
    `${reference} · ${args.category} · ${args.client_name} (${args.client_phone})`,
    args.summary,
    docs ? `${docs} ${docs === 1 ? "document" : "documents"} attached.` : "No documents.",
    fee ? `Consultation fee: ${fee} RWF asked.` : "",
    "Intake only: no advice was given.",
  ].filter(Boolean).join("\n").slice(0, 2000);
}

/** The `case_intake` tool. */
export const caseIntake = defineTool({
  name: "case_intake",
  title: "File a legal case",
  description: "Files the client's legal case for the org's lawyers (category, summary, name, " +
    "phone, documents they sent) and opens a staff ticket. Returns the case id, its reference " +
    "number (LC-2026-000123) and the consultation fee, if any. Intake only: never legal advice.",
  category: "legal",
  input,
  output,
  examples: [{
    description: "A land dispute with one photo",
    input: {
      category: "land",
      summary: "My neighbour built a wall on my plot in Kicukiro last month.",
      docs: ["storage://media/a0000000-0000-4000-8000-000000000001/c1/wamid.HBg.jpg"],
      client_name: "Aline Uwase",
      client_phone: "+250788000001",
      language: "fr",
    },
  }],
  sideEffects: "writes.case",
  auth: "user",
  confirmRequired: true,
  latencyBudgetMs: 600,
  // Filings at once take turns on the org's reference counter (its row lock is held to each
  // commit, so numbers have no gaps): a burst waits its turn rather than failing at 10 × the
  // budget, as a dozen filings at once on a busy two-core server did (TIMEOUT at 6 s).
  timeoutMs: 20_000,
  // People file a case or two, not one a minute.
  rateLimit: { perUser: { limit: 10, windowSec: 3600 } },
  confirmSummary: (args) => {
    const lang = args.language ?? "en";
    return say("confirmFile", lang, {
      category: say(args.category, lang),
      name: args.client_name,
      phone: args.client_phone,
      summary: args.summary.length > 300 ? `${args.summary.slice(0, 297)}…` : args.summary,
      docs: args.docs.length ? say("withDocuments", lang, { count: args.docs.length }) : "",
    });
  },
  async execute(args, ctx) {
    const orgId = ctx.org_id;
    if (!orgId || !ctx.user_id) throw new ToolFailure("AUTH_ERROR");
    const docs = documentsOf(args, orgId);
    await checkVisible(ctx.db, docs);
    // Read first: the case's insert takes the org's reference counter, and its lock is held to
    // the commit, so whatever runs after it makes concurrent filings wait.
    const [settings] = await ctx.db.query<
      { fee: number | null; payee_phone: string | null; payee_name: string | null }
    >(
      `select consultation_fee_rwf as fee, payee_phone, payee_name
       from public.legal_intake_settings where org_id = $1`,
      [orgId],
    );
    const fee = settings?.fee ?? null;
    // The conversation, when it is the caller's: staff open it from the ticket.
    const [convo] = ctx.convo_id
      ? await ctx.db.query<{ id: string }>(
        "select id from public.conversations where id = $1 and org_id = $2",
        [ctx.convo_id, orgId],
      )
      : [];
    const filedAt = ctx.services.now();
    const [filed] = await ctx.db.query<{ id: string; reference_number: string; language: string }>(
      `insert into public.legal_cases
         (org_id, client_id, category, summary, client_name, client_phone, language, created_at)
       values ($1, $2, $3, $4, $5, $6,
               coalesce($7, (select p.locale from public.profiles p where p.id = $2
                             and p.locale in ('en', 'rw', 'fr')), 'en'),
               $8)
       returning id, reference_number, language`,
      [
        orgId,
        ctx.user_id,
        args.category,
        args.summary,
        args.client_name,
        args.client_phone,
        args.language ?? null,
        filedAt.toISOString(),
      ],
    );
    for (const [position, doc] of docs.entries()) {
      await ctx.db.query(
        `insert into public.legal_case_documents (org_id, case_id, position, bucket, path)
         values ($1, $2, $3, $4, $5)`,
        [orgId, filed.id, position, doc.bucket, doc.path],
      );
    }
    const [ticket] = await ctx.db.query<{ id: string }>(
      `insert into public.staff_tickets
         (org_id, convo_id, requester_user_id, channel, reason, summary, priority, trace_id,
          agent_id, language, legal_case_id)
       values ($1, $2, $3, 'inbox', $4, $5, 'medium', $6, $7, $8, $9)
       returning id`,
      [
        orgId,
        convo?.id ?? null,
        ctx.user_id,
        `Legal case ${filed.reference_number} (${args.category}) to review`,
        staffSummary(args, filed.reference_number, docs.length, fee),
        ctx.trace_id,
        ctx.agent_id ?? null,
        filed.language,
        filed.id,
      ],
    );
    return {
      case_id: filed.id,
      reference_number: filed.reference_number,
      status: "new" as const,
      category: args.category,
      filed_at: filedAt.toISOString(),
      language: z.enum(LANGUAGES).parse(filed.language),
      documents: docs,
      ticket_id: ticket.id,
      consultation_fee: fee
        ? {
          amount: fee,
          currency: "RWF" as const,
          ...(settings.payee_phone ? { payee_phone: settings.payee_phone } : {}),
          ...(settings.payee_name ? { payee_name: settings.payee_name } : {}),
        }
        : null,
    };
  },
});
