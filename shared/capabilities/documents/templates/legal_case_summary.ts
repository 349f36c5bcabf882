/**
 * `legal_case_summary`: what a client filed with Legal Intake, for them to
 * keep: the case's reference, category, their name and phone, their own
 * account of it, the documents they sent and when it was filed. It records
 * an intake, never advice: the page says so.
 *
 * @module
 */
import { z } from "zod";
import { int, text } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { formatLongDate, formatRwf } from "@shared/capabilities/format/mod.ts";
import { defineTemplate } from "../template.ts";

const TEXTS = {
  title: {
    en: "Legal case intake summary",
    fr: "Résumé de l'enregistrement de l'affaire",
    rw: "Incamake y'ikibazo cy'amategeko cyanditswe",
  },
  reference: { en: "Reference", fr: "Référence", rw: "Nimero y'ikibazo" },
  category: { en: "Case type", fr: "Type d'affaire", rw: "Ubwoko bw'ikibazo" },
  client: { en: "Client", fr: "Client", rw: "Umukiriya" },
  phone: { en: "Phone", fr: "Téléphone", rw: "Telefoni" },
  filedOn: { en: "Filed on", fr: "Enregistrée le", rw: "Cyanditswe ku wa" },
  documents: { en: "Documents received", fr: "Documents reçus", rw: "Inyandiko zakiriwe" },
  none: { en: "None", fr: "Aucun", rw: "Nta na kimwe" },
  fee: { en: "Consultation fee", fr: "Frais de consultation", rw: "Igiciro cy'inama" },
  account: { en: "What you told us", fr: "Ce que vous nous avez dit", rw: "Ibyo watubwiye" },
  notAdvice: {
    en:
      "This records your request only. It is not legal advice: a lawyer of our team will read your case and contact you.",
    fr:
      "Ce document enregistre seulement votre demande. Ce n'est pas un conseil juridique : un avocat de notre équipe lira votre affaire et vous contactera.",
    rw:
      "Iyi nyandiko yandika gusa ubusabe bwawe. Si inama mu by'amategeko: umunyamategeko wacu azasoma ikibazo cyawe akuvugishe.",
  },
  land: { en: "Land / property", fr: "Foncier / biens", rw: "Ubutaka n'imitungo" },
  family: { en: "Family / inheritance", fr: "Famille / succession", rw: "Umuryango n'izungura" },
  labour: { en: "Work / employment", fr: "Travail / emploi", rw: "Akazi" },
  tenancy: { en: "Renting / landlord", fr: "Location / bail", rw: "Ubukode" },
  contract: { en: "Contract", fr: "Contrat", rw: "Amasezerano" },
  debt: { en: "Money owed", fr: "Dette", rw: "Umwenda" },
  business: { en: "Business / company", fr: "Entreprise", rw: "Ubucuruzi" },
  criminal: { en: "Criminal matter", fr: "Affaire pénale", rw: "Icyaha" },
  notary: { en: "Notary / documents", fr: "Notaire / actes", rw: "Noteri" },
  other: { en: "Other", fr: "Autre", rw: "Ikindi" },
} as const;

const say = phraseBook(TEXTS);

const schema = z.object({
  reference_number: text({ min: 1, max: 40 }),
  category: z.enum([
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
  ]),
  client_name: text({ min: 1, max: 120 }),
  client_phone: text({ min: 1, max: 20 }),
  summary: text({ min: 1, max: 2000, multiline: true }),
  documents: int({ min: 0, max: 10 }).describe("How many documents the client sent."),
  consultation_fee: int({ min: 1, max: 5_000_000 }).optional().describe("Whole RWF, if charged."),
  filed_at: z.iso.datetime({ offset: true }),
});

/** A legal case's intake summary. */
export const LEGAL_CASE_SUMMARY = defineTemplate({
  id: "legal_case_summary",
  description: "Legal case intake summary: reference, type, client, their account, documents.",
  schema,
  content(data, language) {
    const t = (key: keyof typeof TEXTS) => say(key, language);
    return {
      title: t("title"),
      subtitle: `${t("reference")} ${data.reference_number}`,
      date: new Date(data.filed_at),
      sections: [{
        fields: [
          { label: t("reference"), value: data.reference_number },
          { label: t("category"), value: t(data.category) },
          { label: t("client"), value: data.client_name },
          { label: t("phone"), value: data.client_phone },
          { label: t("filedOn"), value: formatLongDate(data.filed_at, language) },
          { label: t("documents"), value: data.documents ? String(data.documents) : t("none") },
          ...(data.consultation_fee
            ? [{ label: t("fee"), value: formatRwf(data.consultation_fee, language) }]
            : []),
        ],
      }, {
        heading: t("account"),
        fields: [{ label: "", value: data.summary }],
      }],
      notes: [t("notAdvice")],
    };
  },
});
