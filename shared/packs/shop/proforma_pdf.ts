/**
 * `proforma_pdf`: the PDF of a proforma `proforma_issue` issued, rendered from its record (the
 * `proforma` template, in the proforma's language): the business's name, the place's name and
 * address, the tenant's WhatsApp number, whom it is made out to, the lines, the total and the
 * validity. Stored in the documents bucket by content (the same proforma is the same file) and
 * linked for {@link PROFORMA_LINK_DAYS} days.
 *
 * It reads as the caller under RLS, so a customer gets only their own proformas and staff their
 * org's; another's id answers as a missing one. It writes no row (its one effect, a file named by
 * its own hash, is idempotent by construction), so it runs outside a write transaction, as
 * `generate_pdf` does, and never holds one while Storage uploads.
 *
 * @module
 */
import { z } from "zod";
import { languageFromLocale } from "@shared/contract/language.ts";
import { id, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { renderDocument } from "@shared/capabilities/documents/render_document.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { storeDocument } from "@shared/capabilities/documents/store_document.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";

/** How long a proforma's link works: as long as a proforma's prices hold, and more. */
export const PROFORMA_LINK_DAYS = 30;

const input = z.object({
  proforma_id: id().describe("The proforma, as proforma_issue returned it."),
});

const output = z.object({
  number: z.string(),
  pdf_url: z.url().describe(
    "A signed link to the PDF; anyone holding it may open it until expires_at.",
  ),
  expires_at: z.iso.datetime({ offset: true }),
  path: z.string().describe("Where the PDF is kept in the documents bucket."),
  bytes: z.int().positive(),
});

interface ProformaRow {
  number: string;
  customer_name: string;
  customer_tin: string | null;
  language: string;
  lines: Array<{ name: string; qty: number; unit_price: number }>;
  total: string | number;
  currency: string;
  issued_at: Date | string;
  valid_until: Date | string;
  seller: string;
  place: string;
  address: string | null;
  area: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The `proforma_pdf` tool. */
export const proformaPdf = defineTool({
  name: "proforma_pdf",
  title: "Proforma PDF",
  description: "Makes the PDF of an issued proforma (its number, the business, the customer, the " +
    `priced lines, the total and validity) and returns a link that works ${PROFORMA_LINK_DAYS} days.`,
  category: "commerce",
  input,
  output,
  examples: [{
    description: "The PDF of a proforma just issued",
    input: { proforma_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d" },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 1500,
  rateLimit: { perUser: { limit: 20, windowSec: 60 } },
  openWorld: true,
  async execute(args, ctx) {
    const orgId = ctx.org_id;
    if (!orgId) throw new ToolFailure("AUTH_ERROR");
    const [row] = await ctx.db.query<ProformaRow>(
      `select p.number, p.customer_name, p.customer_tin, p.language, p.lines, p.total, p.currency, p.issued_at,
              p.valid_until, coalesce(o.brand_name, o.name) as seller, b.name as place,
              b.address, b.area
       from public.proformas p
       join public.orgs o on o.id = p.org_id
       join public.businesses b on b.id = p.business_id
       where p.id = $1 and p.org_id = $2`,
      [args.proforma_id, orgId],
    );
    if (!row) {
      throw new ToolFailure("NOT_FOUND", "proforma_id: no such proforma", {
        fields: [{ path: "proforma_id", message: "no such proforma" }],
      });
    }
    const [whatsapp] = await ctx.db.query<{ display_number: string }>(
      `select display_number from public.tenant_whatsapp_numbers
       where org_id = $1 and display_number is not null order by created_at limit 1`,
      [orgId],
    );
    const address = [row.address, row.area].filter(Boolean).join(", ");
    const document = await renderDocument({
      templateId: "proforma",
      data: {
        number: row.number,
        seller: row.seller,
        place: row.place,
        ...(address ? { address } : {}),
        ...(whatsapp ? { contact: whatsapp.display_number } : {}),
        customer_name: row.customer_name,
        ...(row.customer_tin ? { customer_tin: row.customer_tin } : {}),
        currency: row.currency,
        lines: row.lines.map((line) => ({
          name: line.name,
          qty: line.qty,
          unit_price: line.unit_price,
        })),
        total: Number(row.total),
        issued_at: iso(row.issued_at),
        valid_until: iso(row.valid_until),
      },
      language: languageFromLocale(row.language),
      renderPdf: ctx.services.get(PDF_RENDERER),
    });
    const stored = await storeDocument(ctx.services.get(FILE_STORE), {
      orgId,
      document,
      linkSeconds: PROFORMA_LINK_DAYS * 86_400,
    });
    return {
      number: row.number,
      pdf_url: stored.url,
      expires_at: stored.expiresAt.toISOString(),
      path: stored.path,
      bytes: document.bytes.byteLength,
    };
  },
});
