/**
 * `payment_receipt`: what a customer paid, for what (an order's lines or a
 * premium), how and when.
 *
 * @module
 */
import { z } from "zod";
import { int, text } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { formatLongDate, formatRwf } from "@shared/capabilities/format/mod.ts";
import { defineTemplate, optionalField, pricedLinesTable } from "../template.ts";

const TEXTS = {
  title: { en: "Payment receipt", fr: "Reçu de paiement", rw: "Inyemezabwishyu" },
  number: { en: "Receipt no.", fr: "Reçu n°", rw: "Inyemezabwishyu nimero" },
  paidTo: { en: "Paid to", fr: "Payé à", rw: "Byishyuwe" },
  paidBy: { en: "Paid by", fr: "Payé par", rw: "Uwishyuye" },
  phone: { en: "Phone", fr: "Téléphone", rw: "Telefoni" },
  paidOn: { en: "Paid on", fr: "Payé le", rw: "Byishyuwe ku wa" },
  method: { en: "Method", fr: "Moyen de paiement", rw: "Uburyo bwo kwishyura" },
  momo: { en: "Mobile money (MoMo)", fr: "Mobile money (MoMo)", rw: "Mobile money (MoMo)" },
  airtel_money: { en: "Airtel Money", fr: "Airtel Money", rw: "Airtel Money" },
  cash: { en: "Cash", fr: "Espèces", rw: "Amafaranga mu ntoki" },
  card: { en: "Card", fr: "Carte", rw: "Ikarita" },
  reference: { en: "Transaction", fr: "Transaction", rw: "Igikorwa" },
  order: { en: "Order", fr: "Commande", rw: "Itumizwa" },
  item: { en: "Item", fr: "Article", rw: "Igicuruzwa" },
  qty: { en: "Qty", fr: "Qté", rw: "Umubare" },
  unit: { en: "Unit price", fr: "Prix unitaire", rw: "Igiciro kimwe" },
  amount: { en: "Amount", fr: "Montant", rw: "Amafaranga" },
  total: { en: "Total paid", fr: "Total payé", rw: "Igiteranyo cyishyuwe" },
  thanks: {
    en: "Thank you. Keep this receipt as proof of payment.",
    fr: "Merci. Conservez ce reçu comme preuve de paiement.",
    rw: "Murakoze. Bika iyi nyemezabwishyu nk’ikimenyetso cy’uko wishyuye.",
  },
} as const;

const say = phraseBook(TEXTS);

const schema = z.object({
  receipt_no: text({ min: 1, max: 40 }),
  merchant: text({ min: 1, max: 120 }),
  payer_name: text({ min: 1, max: 120 }).optional(),
  payer_phone: text({ max: 20 }).optional(),
  paid_at: z.iso.datetime({ offset: true }),
  method: z.enum(["momo", "airtel_money", "cash", "card"]),
  reference: text({ min: 1, max: 60 }).optional().describe("The payment provider's reference."),
  order_no: text({ min: 1, max: 40 }).optional(),
  items: z.array(z.object({
    name: text({ min: 1, max: 120 }),
    qty: int({ min: 1, max: 10_000 }),
    unit_price: int({ min: 0, max: 2_000_000_000 }),
  })).min(1, "must list at least one item").max(50),
  total: int({ min: 0, max: 2_000_000_000 }).describe("Whole RWF: the sum of qty × unit_price."),
}).superRefine((data, ctx) => {
  const sum = data.items.reduce((total, item) => total + item.qty * item.unit_price, 0);
  if (sum !== data.total) {
    ctx.addIssue({
      code: "custom",
      path: ["total"],
      message: `must equal the items' sum (${sum} RWF)`,
    });
  }
});

/** An order or payment receipt. */
export const PAYMENT_RECEIPT = defineTemplate({
  id: "payment_receipt",
  description: "Order or payment receipt: lines, total, how and when it was paid.",
  schema,
  attests: true,
  content(data, language) {
    const t = (key: keyof typeof TEXTS) => say(key, language);
    const rwf = (amount: number) => formatRwf(amount, language);
    return {
      title: t("title"),
      subtitle: `${t("number")} ${data.receipt_no}`,
      date: new Date(data.paid_at),
      sections: [{
        fields: [
          { label: t("paidTo"), value: data.merchant },
          ...optionalField(t("paidBy"), data.payer_name),
          ...optionalField(t("phone"), data.payer_phone),
          { label: t("paidOn"), value: formatLongDate(data.paid_at, language) },
          { label: t("method"), value: t(data.method) },
          ...optionalField(t("reference"), data.reference),
          ...optionalField(t("order"), data.order_no),
        ],
      }],
      table: pricedLinesTable({
        label: t,
        lines: data.items,
        total: data.total,
        money: rwf,
      }),
      notes: [t("thanks")],
    };
  },
});
