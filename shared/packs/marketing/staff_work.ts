/**
 * Marketing & Sales' work as a customer would ask for it: the router learns these as staff
 * work (`PackAgent.staffWork`) and tells the customer that the team sends broadcasts, never
 * routing them to the staff agent.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** Customers' requests for a broadcast or a campaign, by language. */
export const MARKETING_STAFF_WORK: Readonly<Record<Language, readonly string[]>> = {
  en: [
    "create a marketing campaign for my company",
    "send an ad blast to all your customers",
    "schedule a marketing broadcast",
    "broadcast a message to all your users about my sale",
    "i want to run a marketing campaign on your subscriber list",
    "a bulk sms campaign for my business",
    "broadcast my advert to every subscriber",
    "create a message template for a campaign",
  ],
  rw: [
    "ndashaka gukora ubukangurambaga bwo kwamamaza",
    "kohereza ubutumwa bwo kwamamaza ku bakiriya bose",
    "mwohereze ubutumwa bwa promosiyo ku bafatabuguzi bose",
    "nshaka ubukangurambaga bwo kwamamaza kuri telefoni z'abantu bose",
    "tegura broadcast yo kwamamaza",
    "ohereza sms zo kwamamaza ku bakoresha bose icyarimwe",
    "nkorera campaign ya marketing",
    "template y'ubutumwa bwo kwamamaza",
  ],
  fr: [
    "lancer une campagne marketing",
    "envoyer une promo a tous vos clients",
    "programmer une diffusion marketing",
    "diffusez ma promo à tous vos abonnés",
    "un envoi groupé de sms publicitaires",
    "lancer une campagne de diffusion à toute votre liste",
    "planifier un message de masse publicitaire",
    "créer un modèle de message pour une campagne",
  ],
};

/** That work as a customer is told the team does it. */
export const MARKETING_STAFF_WORK_NAME: Readonly<Record<Language, string>> = {
  en: "messages to all customers",
  rw: "ubutumwa bujya ku bakiriya bose",
  fr: "les messages à tous les clients",
};
