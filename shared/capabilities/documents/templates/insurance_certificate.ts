/**
 * `insurance_certificate`: the motor insurance certificate a customer keeps
 * in the vehicle once the premium is paid.
 *
 * @module
 */
import { z } from "zod";
import { int, text } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { formatLongDate, formatRwf, instantOf } from "@shared/capabilities/format/mod.ts";
import { defineTemplate, optionalField } from "../template.ts";

const TEXTS = {
  title: {
    en: "Certificate of Motor Insurance",
    fr: "Attestation d’assurance automobile",
    rw: "Icyemezo cy’ubwishingizi bw’ikinyabiziga",
  },
  number: { en: "Certificate no.", fr: "Attestation n°", rw: "Icyemezo nimero" },
  policy: { en: "Policy no.", fr: "Police n°", rw: "Nimero y’amasezerano" },
  insured: { en: "Insured", fr: "Assuré", rw: "Uwishingiwe" },
  name: { en: "Name", fr: "Nom", rw: "Amazina" },
  nationalId: { en: "National ID", fr: "Carte d’identité", rw: "Indangamuntu" },
  phone: { en: "Phone", fr: "Téléphone", rw: "Telefoni" },
  vehicle: { en: "Vehicle", fr: "Véhicule", rw: "Ikinyabiziga" },
  plate: { en: "Plate", fr: "Immatriculation", rw: "Pulaki" },
  makeModel: { en: "Make and model", fr: "Marque et modèle", rw: "Ikirango n’ubwoko" },
  year: { en: "Year", fr: "Année", rw: "Umwaka" },
  chassis: { en: "Chassis (VIN)", fr: "Numéro de châssis", rw: "Nimero ya shasi" },
  usage: { en: "Use", fr: "Usage", rw: "Imikoreshereze" },
  private: { en: "Private", fr: "Privé", rw: "Bwite" },
  commercial: { en: "Commercial", fr: "Commercial", rw: "Ubucuruzi" },
  coverHeading: { en: "Cover", fr: "Garantie", rw: "Ubwishingizi" },
  insurer: { en: "Insurer", fr: "Assureur", rw: "Umwishingizi" },
  cover: { en: "Cover", fr: "Garantie", rw: "Ubwoko bw’ubwishingizi" },
  third_party: {
    en: "Third party liability",
    fr: "Responsabilité civile (tiers)",
    rw: "Ubwishingizi bw’abandi (third party)",
  },
  comprehensive: {
    en: "Comprehensive",
    fr: "Tous risques",
    rw: "Ubwishingizi bwuzuye",
  },
  period: { en: "Period", fr: "Période", rw: "Igihe" },
  premium: { en: "Premium paid", fr: "Prime payée", rw: "Amafaranga yishyuwe" },
  issued: { en: "Issued on", fr: "Délivrée le", rw: "Cyatanzwe ku wa" },
  keep: {
    en: "Keep this certificate in the vehicle and show it when asked by the police.",
    fr: "Conservez cette attestation dans le véhicule et présentez-la à tout contrôle de police.",
    rw:
      "Bika iki cyemezo mu kinyabiziga kandi ucyereke Polisi igihe icyo ari cyo cyose ikigusabye.",
  },
  through: {
    en: "Issued through EasyMO on behalf of the insurer named above.",
    fr: "Délivrée par EasyMO pour le compte de l’assureur nommé ci-dessus.",
    rw: "Cyatanzwe na EasyMO mu izina ry’umwishingizi wavuzwe haruguru.",
  },
} as const;

const say = phraseBook(TEXTS);

const date = z.iso.date("must be a date like 2026-11-23");

const schema = z.object({
  certificate_no: text({ min: 1, max: 40 }),
  policy_no: text({ min: 1, max: 40 }).optional(),
  insurer: text({ min: 1, max: 120 }),
  insured: z.object({
    name: text({ min: 1, max: 120 }),
    national_id: z.string().regex(/^\d{16}$/, "must be the 16 digits of a Rwandan ID").optional(),
    phone: text({ max: 20 }).optional(),
  }),
  vehicle: z.object({
    plate: text({ min: 1, max: 20 }),
    make: text({ min: 1, max: 40 }),
    model: text({ min: 1, max: 40 }),
    year: int({ min: 1900, max: 2200 }),
    chassis: text({ max: 30 }).optional(),
  }),
  usage: z.enum(["private", "commercial"]).default("private"),
  cover: z.enum(["third_party", "comprehensive"]),
  period: z.object({ from: date, to: date }).refine((p) => p.from <= p.to, {
    message: "must end on or after its start",
    path: ["to"],
  }),
  premium: int({ min: 0, max: 2_000_000_000 }).describe("Whole RWF."),
  issued_at: date,
});

/** The motor insurance certificate. */
export const INSURANCE_CERTIFICATE = defineTemplate({
  id: "insurance_certificate",
  description: "Motor insurance certificate (insured, vehicle, insurer, cover, period, premium).",
  schema,
  attests: true,
  content(data, language) {
    const t = (key: keyof typeof TEXTS) => say(key, language);
    return {
      title: t("title"),
      subtitle: `${t("number")} ${data.certificate_no}`,
      date: instantOf(data.issued_at),
      sections: [{
        heading: t("insured"),
        fields: [
          { label: t("name"), value: data.insured.name },
          ...optionalField(t("nationalId"), data.insured.national_id),
          ...optionalField(t("phone"), data.insured.phone),
        ],
      }, {
        heading: t("vehicle"),
        fields: [
          { label: t("plate"), value: data.vehicle.plate },
          { label: t("makeModel"), value: `${data.vehicle.make} ${data.vehicle.model}` },
          { label: t("year"), value: String(data.vehicle.year) },
          ...optionalField(t("chassis"), data.vehicle.chassis),
          { label: t("usage"), value: t(data.usage) },
        ],
      }, {
        heading: t("coverHeading"),
        fields: [
          { label: t("insurer"), value: data.insurer },
          ...optionalField(t("policy"), data.policy_no),
          { label: t("cover"), value: t(data.cover) },
          {
            label: t("period"),
            value: `${formatLongDate(data.period.from, language)} – ${
              formatLongDate(data.period.to, language)
            }`,
          },
          { label: t("premium"), value: formatRwf(data.premium, language) },
          { label: t("issued"), value: formatLongDate(data.issued_at, language) },
        ],
      }],
      notes: [t("keep"), t("through")],
    };
  },
});
