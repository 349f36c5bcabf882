/**
 * The insurance pack: insurance's agent and the phrases the router learns it from (Insurance: motor
 * insurance, carte jaune, travel and health cover, claims). Offline, motor insurance runs end to
 * end (`insurance_flow.ts`): a photo of the carte jaune, the fields confirmed, quotes compared,
 * MoMo, and the certificate sent once paid (`certificates.ts`, a sweep).
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { INSURANCE_INTENTS } from "./intents.ts";
import { VEHICLE_NAMES } from "./vehicle_names.ts";
import { OCR_ENGINE, ocrExtract } from "@shared/capabilities/document_reading/mod.ts";
import { insurancePayee } from "./settings.ts";
import { priceInsurance } from "./price_insurance.ts";
import { insuranceCertificatesSweep } from "./certificates.ts";
import { insuranceFlow, insuranceFlowMemory } from "./insurance_flow.ts";
import { premiumPending } from "./insurance_pending.ts";
import { INSURANCE_TEXTS } from "./texts.ts";

/** The insurance pack. */
export const INSURANCE_PACK: Pack = {
  ...agentOnlyPack("insurance", {
    id: "insurance",
    name: "Insurance",
    description: "Reads vehicle documents, prices motor insurance and issues certificates.",
    audience: "customers",
    answersFollowUps: true,
    tools: [
      "ocr_extract",
      "price_insurance",
      "generate_pdf",
      "momo_charge",
      "momo_charge_cancel",
      "payment_status",
      "notify_staff",
      "analytics_log",
    ],
    intents: INSURANCE_INTENTS,
    menuTitle: { en: "Insurance", rw: "Ubwishingizi", fr: "Assurance" },
    offlineFlow: insuranceFlow,
    memory: insuranceFlowMemory,
    // Leaving with the premium's charge waiting asks whether to cancel it or keep it.
    pending: premiumPending,
  }),
  tools: [priceInsurance, ocrExtract, insuranceCertificatesSweep],
  texts: INSURANCE_TEXTS,
  services: [FILE_STORE, OCR_ENGINE, MESSAGING],
  // Paid premiums get their certificate (the settlement hook: see certificates.ts).
  sweeps: ["insurance_certificates_sweep"],
  checkSettings: () => void insurancePayee(),
  // "sell my RAV4" is no insurance question: makes and models name no topic.
  vehicleNames: VEHICLE_NAMES,
};
