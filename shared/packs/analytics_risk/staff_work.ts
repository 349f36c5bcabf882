/**
 * Analytics & Risk's work as a customer would ask for it: the router learns these as staff
 * work (`PackAgent.staffWork`) and tells the customer that the team keeps the figures, never
 * routing them to the staff agent.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** Customers' requests for the platform's figures, reports or operations, by language. */
export const ANALYTICS_STAFF_WORK: Readonly<Record<Language, readonly string[]>> = {
  en: [
    "show me the analytics dashboard",
    "risk score report for vendors",
    "operations dashboard and dispatch logs",
    "give me the funnel report for this week",
    "send me your platform statistics",
    "what is the vendor response rate this month",
    "export the conversion figures for all agents",
  ],
  rw: [
    "raporo y'imibare y'abacuruzi",
    "dashboard y'ibikorwa",
    "nyereka statistiques za platform yanyu",
    "raporo ya funnel y'iki cyumweru",
    "igipimo cy'abacuruzi basubiza uku kwezi",
    "imibare ya conversion y'abakozi bose",
    "dashboard y'imibare ya analytics",
  ],
  fr: [
    "tableau de bord analytique",
    "rapport de risque sur les vendeurs",
    "tableau de bord des operations",
    "le rapport d'entonnoir de cette semaine",
    "les statistiques de votre plateforme",
    "le taux de réponse des vendeurs ce mois",
    "exporter les taux de conversion de tous les agents",
  ],
};

/** That work as a customer is told the team does it. */
export const ANALYTICS_STAFF_WORK_NAME: Readonly<Record<Language, string>> = {
  en: "reports",
  rw: "raporo",
  fr: "les rapports",
};
