/**
 * What the marketing pack says, in en, rw and fr: the opt-out's
 * acknowledgement, the confirmation's read-back of a campaign, and the
 * Marketing & Sales flow staff follow to schedule one. Button and row
 * titles stay within WhatsApp's limits (20 and 24 characters).
 *
 * @module
 */
import { phraseBook } from "@shared/contract/language.ts";

/** Every phrase of the pack. */
export const MARKETING_TEXTS = {
  optedOut: {
    en:
      "You will get no more marketing messages from {brand}. You can still write to us at any time.",
    rw:
      "Ntuzongera kubona ubutumwa bwo kwamamaza buturutse kuri {brand}. Ushobora kutwandikira igihe cyose.",
    fr:
      "{brand} ne vous enverra plus de messages marketing. Vous pouvez toujours nous écrire à tout moment.",
  },
  scheduleSummary: {
    en:
      'Broadcast "{template}" ({language}) to {reach|# opted-in person|# opted-in people}, going out {when}{moved}.',
    rw:
      'Kohereza "{template}" ({language}) {reach|ku muntu # wabyemeye|ku bantu # babyemeye}, bizagenda {when}{moved}.',
    fr:
      "Diffuser « {template} » ({language}) à {reach|# personne inscrite|# personnes inscrites}, envoi le {when}{moved}.",
  },
  movedForQuietHours: {
    en: " (moved out of quiet hours; asked for {asked})",
    rw: " (byimuwe kubera amasaha y'ituze; byasabwe {asked})",
    fr: " (déplacé hors des heures calmes ; demandé pour {asked})",
  },
  cancelSummary: {
    en: "Cancel the broadcast {campaign}: nothing more of it is sent.",
    rw: "Guhagarika ubutumwa {campaign}: nta kindi kizoherezwa.",
    fr: "Annuler la diffusion {campaign} : plus rien n'en sera envoyé.",
  },
  pickTemplate: {
    en: "Which approved template do you want to broadcast? (0 = menu)",
    rw: "Ni iyihe nyandiko yemejwe ushaka kohereza? (0 = menu)",
    fr: "Quel modèle approuvé voulez-vous diffuser ? (0 = menu)",
  },
  noTemplates: {
    en:
      "There is no approved template yet. Record one Meta approved in the Admin Inbox, then come back.",
    rw: "Nta nyandiko yemejwe irahari. Andika iyo Meta yemeje muri Admin Inbox, hanyuma ugaruke.",
    fr:
      "Aucun modèle approuvé pour l'instant. Enregistrez-en un approuvé par Meta dans l'Admin Inbox, puis revenez.",
  },
  templatesButton: { en: "Templates", rw: "Inyandiko", fr: "Modèles" },
  askVariable: {
    en: "What goes in {{name}}? (0 = menu)",
    rw: "Ni iki gishyirwa muri {{name}}? (0 = menu)",
    fr: "Que mettre dans {{name}} ? (0 = menu)",
  },
  askAudience: {
    en: "Who should receive it? Everyone who opted in, or only those who speak one language.",
    rw: "Ni bande bagomba kubibona? Abemeye bose, cyangwa abavuga ururimi rumwe gusa.",
    fr: "Qui doit le recevoir ? Tous les inscrits, ou seulement ceux d'une langue.",
  },
  audienceAll: { en: "Everyone opted in", rw: "Abemeye bose", fr: "Tous les inscrits" },
  audienceEn: { en: "English only", rw: "Icyongereza gusa", fr: "Anglais seulement" },
  audienceRw: { en: "Kinyarwanda only", rw: "Ikinyarwanda gusa", fr: "Kinyarwanda seul." },
  audienceFr: { en: "French only", rw: "Igifaransa gusa", fr: "Français seulement" },
  audienceButton: { en: "Audience", rw: "Abakiriya", fr: "Public" },
  askWhen: {
    en:
      "When should it go out? Write the date and time, e.g. 2026-12-05 18:00 (Kigali time). (0 = menu)",
    rw:
      "Bizoherezwa ryari? Andika itariki n'isaha, urugero 2026-12-05 18:00 (isaha ya Kigali). (0 = menu)",
    fr:
      "Quand doit-il partir ? Écrivez la date et l'heure, par ex. 2026-12-05 18:00 (heure de Kigali). (0 = menu)",
  },
  badWhen: {
    en: "I could not read that time. Write it as 2026-12-05 18:00, not in the past. (0 = menu)",
    rw: "Sinashoboye gusoma iyo saha. Yandike nka 2026-12-05 18:00, itari iyashize. (0 = menu)",
    fr:
      "Je n'ai pas pu lire cette heure. Écrivez-la comme 2026-12-05 18:00, pas dans le passé. (0 = menu)",
  },
  scheduled: {
    en:
      'Scheduled: {reach|# opted-in person|# opted-in people} will receive "{template}" {when}. Campaign {campaign}.',
    rw:
      'Byateguwe: {reach|umuntu # wabyemeye azabona|abantu # babyemeye bazabona} "{template}" {when}. Ubutumwa {campaign}.',
    fr:
      "Programmé : {reach|# personne inscrite recevra|# personnes inscrites recevront} « {template} » le {when}. Campagne {campaign}.",
  },
  notScheduled: {
    en: "Nothing was scheduled. (0 = menu)",
    rw: "Nta cyateguwe. (0 = menu)",
    fr: "Rien n'a été programmé. (0 = menu)",
  },
  refused: {
    en: "The broadcast was refused: {why} Let's start again. (0 = menu)",
    rw: "Ubutumwa bwanzwe: {why} Reka twongere dutangire. (0 = menu)",
    fr: "La diffusion a été refusée : {why} Recommençons. (0 = menu)",
  },
} as const;

/** Says a phrase of the pack. */
export const say = phraseBook(MARKETING_TEXTS);
