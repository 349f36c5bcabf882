/**
 * The legal pack: Legal Intake (lawyers, contracts, disputes, notary
 * services). Its agent takes a case down for the org's lawyers, in en, rw and
 * fr: category, summary, the client's name, documents sent as photos or PDFs,
 * then `case_intake` files it (a reference number, a staff ticket in the
 * Admin Inbox), the client gets an intake summary PDF and, where the org
 * charges one, the consultation fee to pay by MoMo. It gives no legal advice:
 * offline the flow refuses advice questions (`advice.ts`), and with a model
 * the agent's reply guard replaces any reply that gives advice.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { asksForAdvice, givesAdvice } from "./advice.ts";
import { caseIntake } from "./case_intake.ts";
import { feePending } from "./legal_pending.ts";
import { LEGAL_INTENTS } from "./intents.ts";
import { legalFlow, legalFlowMemory, noAdviceReply } from "./legal_flow.ts";
import { LEGAL_TEXTS } from "./texts.ts";

/** The legal pack. */
export const LEGAL_PACK: Pack = {
  id: "legal_intake",
  tools: [caseIntake],
  agents: [{
    id: "legal_intake",
    name: "Legal Intake",
    names: { rw: "Kwakira ibibazo by'amategeko", fr: "Accueil juridique" },
    description: "Takes down legal cases for a lawyer; gives no legal advice.",
    audience: "customers",
    tools: [
      "case_intake",
      "search_supabase",
      "generate_pdf",
      "momo_charge",
      "momo_charge_cancel",
      "payment_status",
      "notify_staff",
      "analytics_log",
    ],
    intents: LEGAL_INTENTS,
    // Reached by its words: the menu holds the ten services a WhatsApp list can show.
    offlineFlow: legalFlow,
    memory: legalFlowMemory,
    // Leaving with the consultation fee's charge waiting asks whether to cancel it or keep it.
    pending: feePending,
    instructions:
      "You take down the client's legal case for the org's lawyers: ask its category, what " +
      "happened, their full name (their phone is their WhatsApp number) and any documents " +
      "(photos or PDFs), read it back, then file it with case_intake, send the summary with " +
      "generate_pdf (template legal_case_summary) and give the reference number. You never give " +
      "legal advice, in any language: never say what the client should do, whether to sign, " +
      "what the law says or allows, or how a case would end. When asked, say politely that only " +
      "a lawyer can advise, and offer to file the case or to hand over to a person " +
      "(notify_staff).",
    guardReply: (text, turn) => givesAdvice(text) ? noAdviceReply(turn) : null,
    // "Should I pay him?" mid-case is a request for advice to refuse here, not a payment.
    holds: asksForAdvice,
  }],
  // What search_supabase may read (RLS still decides rows: a client's own, staff their org's).
  tables: {
    legal_cases: {
      id: "uuid",
      reference_number: "text",
      category: "text",
      status: "text",
      language: "text",
      created_at: "timestamptz",
    },
  },
  texts: LEGAL_TEXTS,
  services: [],
};
