/**
 * `insurance_quote`: the quotes `price_insurance` found, side by side, for a
 * customer to compare (each insurer's base, fees, VAT and premium).
 *
 * @module
 */
import { z } from "zod";
import { int, text } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { formatLongDate, formatRwf, instantOf } from "@shared/capabilities/format/mod.ts";
import { defineTemplate } from "../template.ts";

const TEXTS = {
  title: { en: "Insurance quote", fr: "Devis d’assurance", rw: "Igiciro cy’ubwishingizi" },
  reference: { en: "Reference", fr: "Référence", rw: "Indango" },
  request: { en: "Your request", fr: "Votre demande", rw: "Icyo wasabye" },
  customer: { en: "Customer", fr: "Client", rw: "Umukiriya" },
  product: { en: "Insurance", fr: "Assurance", rw: "Ubwishingizi" },
  motor: { en: "Motor", fr: "Automobile", rw: "Ibinyabiziga" },
  travel: { en: "Travel", fr: "Voyage", rw: "Urugendo" },
  health: { en: "Health", fr: "Santé", rw: "Ubuzima" },
  category: { en: "Category", fr: "Catégorie", rw: "Icyiciro" },
  cover: { en: "Cover", fr: "Garantie", rw: "Ubwoko bw’ubwishingizi" },
  third_party: { en: "Third party", fr: "Tiers", rw: "Abandi (third party)" },
  comprehensive: { en: "Comprehensive", fr: "Tous risques", rw: "Bwuzuye" },
  standard: { en: "Standard", fr: "Standard", rw: "Busanzwe" },
  days: { en: "Period", fr: "Durée", rw: "Igihe" },
  daysValue: { en: "{n} days", fr: "{n} jours", rw: "Iminsi {n}" },
  vehicle: { en: "Vehicle", fr: "Véhicule", rw: "Ikinyabiziga" },
  destination: { en: "Destination", fr: "Destination", rw: "Aho ujya" },
  insurer: { en: "Insurer", fr: "Assureur", rw: "Umwishingizi" },
  base: { en: "Premium", fr: "Prime nette", rw: "Igiciro fatizo" },
  fees: { en: "Fees", fr: "Frais", rw: "Amafaranga y’inyongera" },
  vat: { en: "VAT 18%", fr: "TVA 18 %", rw: "TVA 18%" },
  total: { en: "Total", fr: "Total", rw: "Igiteranyo" },
  validUntil: {
    en: "These prices hold until {date}. Amounts are whole Rwandan francs, VAT included.",
    fr: "Ces prix sont valables jusqu’au {date}. Montants en francs rwandais, TVA comprise.",
    rw: "Ibi biciro bizagumaho kugeza ku wa {date}. Amafaranga ni ay’u Rwanda, TVA irimo.",
  },
  issued: { en: "Issued on {date}.", fr: "Émis le {date}.", rw: "Byatanzwe ku wa {date}." },
} as const;

const say = phraseBook(TEXTS);

const money = int({ min: 0, max: 2_000_000_000 });

const schema = z.object({
  reference: text({ min: 1, max: 60 }),
  customer_name: text({ min: 1, max: 120 }).optional(),
  product: z.enum(["motor", "travel", "health"]),
  category: text({ min: 1, max: 40 }),
  cover: z.enum(["third_party", "comprehensive", "standard"]).default("standard"),
  coverage_days: int({ min: 1, max: 3650 }),
  vehicle: z.object({
    make: text({ min: 1, max: 40 }),
    model: text({ min: 1, max: 40 }),
    year: int({ min: 1900, max: 2200 }),
    plate: text({ max: 20 }).optional(),
  }).optional(),
  destination: text({ min: 1, max: 80 }).optional(),
  quotes: z.array(
    z.object({
      insurer: text({ min: 1, max: 120 }),
      base: money,
      fees: money,
      tax: money,
      premium: money,
    }).refine((q) => q.base + q.fees + q.tax === q.premium, {
      message: "premium must equal base + fees + tax",
      path: ["premium"],
    }),
  ).min(1, "must list at least one quote").max(10),
  valid_until: z.iso.datetime({ offset: true }).or(z.iso.date()),
  issued_at: z.iso.datetime({ offset: true }).or(z.iso.date()),
});

/** The comparison of insurance quotes. */
export const INSURANCE_QUOTE = defineTemplate({
  id: "insurance_quote",
  description: "Insurance quotes compared: each insurer's premium, fees, VAT and total.",
  schema,
  content(data, language) {
    const t = (key: keyof typeof TEXTS, values?: Record<string, string | number>) =>
      say(key, language, values);
    const fields = [
      ...(data.customer_name ? [{ label: t("customer"), value: data.customer_name }] : []),
      { label: t("product"), value: t(data.product) },
      { label: t("category"), value: data.category },
      { label: t("cover"), value: t(data.cover) },
      { label: t("days"), value: t("daysValue", { n: data.coverage_days }) },
      ...(data.vehicle
        ? [{
          label: t("vehicle"),
          value: [data.vehicle.make, data.vehicle.model, data.vehicle.year, data.vehicle.plate]
            .filter(Boolean).join(" "),
        }]
        : []),
      ...(data.destination ? [{ label: t("destination"), value: data.destination }] : []),
    ];
    const rwf = (amount: number) => formatRwf(amount, language);
    return {
      title: t("title"),
      subtitle: `${t("reference")} ${data.reference}`,
      date: instantOf(data.issued_at),
      sections: [{ heading: t("request"), fields }],
      table: {
        columns: [
          { header: t("insurer"), width: 34 },
          { header: t("base"), numeric: true, width: 17 },
          { header: t("fees"), numeric: true, width: 15 },
          { header: t("vat"), numeric: true, width: 15 },
          { header: t("total"), numeric: true, width: 19 },
        ],
        rows: data.quotes.map((q) => [
          q.insurer,
          rwf(q.base),
          rwf(q.fees),
          rwf(q.tax),
          rwf(q.premium),
        ]),
      },
      notes: [
        t("validUntil", { date: formatLongDate(data.valid_until, language) }),
        t("issued", { date: formatLongDate(data.issued_at, language) }),
      ],
    };
  },
});
