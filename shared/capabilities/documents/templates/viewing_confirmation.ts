/**
 * `viewing_confirmation`: a booked property viewing, for the renter to keep:
 * the home, when, the exact address and who to meet. Not an attestation:
 * the renter renders their own copy from `schedule_viewing`'s answer.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, int, text } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { formatKigaliDate, formatRwf } from "@shared/capabilities/format/mod.ts";
import { defineTemplate } from "../template.ts";

const TEXTS = {
  title: { en: "Viewing confirmation", fr: "Confirmation de visite", rw: "Icyemezo cyo gusura" },
  number: { en: "Booking", fr: "Réservation", rw: "Ibyemejwe" },
  home: { en: "Home", fr: "Logement", rw: "Inzu" },
  area: { en: "Area", fr: "Quartier", rw: "Aho iherereye" },
  rent: { en: "Monthly rent", fr: "Loyer mensuel", rw: "Ubukode bwa buri kwezi" },
  when: { en: "Viewing", fr: "Visite", rw: "Gusura" },
  address: { en: "Address", fr: "Adresse", rw: "Aderesi" },
  contact: { en: "Meet", fr: "Contact", rw: "Uhure na" },
  renter: { en: "Booked by", fr: "Réservé par", rw: "Byemejwe na" },
  note: {
    en: "Cancel or move the viewing in the chat if you cannot come.",
    fr: "Annulez ou déplacez la visite dans la conversation si vous ne pouvez pas venir.",
    rw: "Niba utazaboneka, hagarika cyangwa wimure gusura mu kiganiro.",
  },
} as const;

const say = phraseBook(TEXTS);

const schema = z.object({
  booking_ref: text({ min: 1, max: 40 }).describe("The viewing's id or a short code."),
  title: text({ min: 1, max: 120 }),
  area: text({ min: 1, max: 120 }),
  price: int({ min: 1, max: 100_000_000 }).optional().describe("Monthly rent, whole RWF."),
  starts_at: z.iso.datetime({ offset: true }),
  address: text({ min: 3, max: 300 }),
  contact: text({ min: 1, max: 160 }),
  renter_name: text({ min: 1, max: 120 }),
  renter_phone: e164Phone(),
  issued_at: z.iso.datetime({ offset: true }),
});

/** A booked viewing's confirmation. */
export const VIEWING_CONFIRMATION = defineTemplate({
  id: "viewing_confirmation",
  description: "A booked property viewing: the home, when, the exact address and who to meet.",
  schema,
  attests: false,
  content(data, language) {
    const t = (key: keyof typeof TEXTS) => say(key, language);
    return {
      title: t("title"),
      subtitle: `${t("number")} ${data.booking_ref}`,
      date: new Date(data.issued_at),
      sections: [{
        fields: [
          { label: t("home"), value: data.title },
          { label: t("area"), value: data.area },
          ...(data.price ? [{ label: t("rent"), value: formatRwf(data.price, language) }] : []),
          { label: t("when"), value: formatKigaliDate(data.starts_at, language, { time: true }) },
          { label: t("address"), value: data.address },
          { label: t("contact"), value: data.contact },
          { label: t("renter"), value: `${data.renter_name}, ${data.renter_phone}` },
        ],
      }],
      notes: [t("note")],
    };
  },
});
