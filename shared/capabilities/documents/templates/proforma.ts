/**
 * `proforma`: a priced quotation on the business's paper, for a school or company to file and
 * pay against: the business's name and contact, the proforma's number and date, whom it is
 * made out to, the lines priced from stock, the total and how long the prices hold. It quotes,
 * it does not bill: the page says so.
 *
 * @module
 */
import { z } from "zod";
import { int, text } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { tin } from "@shared/contract/tax_id.ts";
import { formatLongDate, formatMoney } from "@shared/capabilities/format/mod.ts";
import { defineTemplate, optionalField, pricedLinesTable } from "../template.ts";

const TEXTS = {
  title: { en: "Proforma invoice", fr: "Facture proforma", rw: "Proforma (inyemezabiciro)" },
  number: { en: "No.", fr: "N°", rw: "Nimero" },
  seller: { en: "From", fr: "Émise par", rw: "Itanzwe na" },
  place: { en: "Place", fr: "Point de vente", rw: "Aho biri" },
  address: { en: "Address", fr: "Adresse", rw: "Aderesi" },
  contact: { en: "Contact", fr: "Contact", rw: "Twandikire" },
  customer: { en: "Made out to", fr: "Établie au nom de", rw: "Yandikiwe" },
  tin: { en: "TIN", fr: "NIF", rw: "TIN" },
  issued: { en: "Date", fr: "Date", rw: "Itariki" },
  validUntil: { en: "Valid until", fr: "Valable jusqu'au", rw: "Ifite agaciro kugeza" },
  item: { en: "Item", fr: "Article", rw: "Igicuruzwa" },
  qty: { en: "Qty", fr: "Qté", rw: "Umubare" },
  unit: { en: "Unit price", fr: "Prix unitaire", rw: "Igiciro kimwe" },
  amount: { en: "Amount", fr: "Montant", rw: "Amafaranga" },
  total: { en: "Total", fr: "Total", rw: "Igiteranyo" },
  notInvoice: {
    en:
      "This proforma quotes prices and stock on the date above; it is not a receipt. Prices hold until the date of validity.",
    fr:
      "Cette facture proforma indique les prix et le stock à la date ci-dessus ; ce n'est pas un reçu. Les prix sont garantis jusqu'à la date de validité.",
    rw:
      "Iyi proforma igaragaza ibiciro n'ibihari ku itariki iri hejuru; si inyemezabwishyu. Ibiciro bikurikizwa kugeza ku itariki y'agaciro.",
  },
} as const;

const say = phraseBook(TEXTS);

const schema = z.object({
  number: text({ min: 1, max: 40 }),
  seller: text({ min: 1, max: 200 }).describe("The business's name."),
  place: text({ min: 1, max: 200 }).optional().describe("The place the goods come from."),
  address: text({ min: 1, max: 300 }).optional(),
  contact: text({ min: 1, max: 40 }).optional().describe("A phone the customer reaches it on."),
  customer_name: text({ min: 1, max: 120 }),
  customer_tin: tin().optional().describe("The buyer's taxpayer number, printed when given."),
  currency: z.string().regex(/^[A-Z]{3}$/),
  lines: z.array(z.object({
    name: text({ min: 1, max: 120 }),
    qty: int({ min: 1, max: 100_000 }),
    unit_price: int({ min: 0, max: 2_000_000_000 }),
  })).min(1, "must list at least one item").max(50),
  total: int({ min: 0, max: 2_000_000_000 }).describe("The sum of qty × unit_price."),
  issued_at: z.iso.datetime({ offset: true }),
  valid_until: z.iso.datetime({ offset: true }),
}).superRefine((data, ctx) => {
  const sum = data.lines.reduce((total, line) => total + line.qty * line.unit_price, 0);
  if (sum !== data.total) {
    ctx.addIssue({
      code: "custom",
      path: ["total"],
      message: `must equal the lines' sum (${sum})`,
    });
  }
  if (Date.parse(data.valid_until) <= Date.parse(data.issued_at)) {
    ctx.addIssue({ code: "custom", path: ["valid_until"], message: "must be after issued_at" });
  }
});

/** A proforma invoice (a priced quotation). */
export const PROFORMA = defineTemplate({
  id: "proforma",
  description: "Proforma invoice: the business, number, customer, priced lines, total, validity.",
  schema,
  // Issued by `proforma_issue` from the stock's own prices, never from a caller's figures.
  attests: true,
  content(data, language) {
    const t = (key: keyof typeof TEXTS) => say(key, language);
    const money = (amount: number) => formatMoney(amount, language, { currency: data.currency });
    return {
      title: t("title"),
      subtitle: `${t("number")} ${data.number}`,
      date: new Date(data.issued_at),
      sections: [{
        fields: [
          { label: t("seller"), value: data.seller },
          ...optionalField(t("place"), data.place),
          ...optionalField(t("address"), data.address),
          ...optionalField(t("contact"), data.contact),
        ],
      }, {
        fields: [
          { label: t("customer"), value: data.customer_name },
          ...optionalField(t("tin"), data.customer_tin),
          { label: t("issued"), value: formatLongDate(data.issued_at, language) },
          { label: t("validUntil"), value: formatLongDate(data.valid_until, language) },
        ],
      }],
      table: pricedLinesTable({
        label: t,
        lines: data.lines,
        total: data.total,
        money: money,
      }),
      notes: [t("notInvoice")],
    };
  },
});
