/**
 * What a message handed to a person complains about, in en, rw and fr, so
 * that its ticket's reason says what happened ("complaint about the driver")
 * rather than only that a person was asked for.
 *
 * @module
 */

/** Lower case, accents off, apostrophes one kind: "Réclamation" reads "reclamation". */
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").replace(/[’‘`]/g, "'").toLowerCase();
}

// Words that complain: about how someone behaved or what it cost, in the three languages.
// "ikibazo" (a problem) alone is not one: "mfite ikibazo" can be any question.
const COMPLAINS = new RegExp(
  [
    // en
    "complain\\w*",
    "rude",
    "overcharg\\w*",
    "insult\\w*",
    "shouted",
    "unacceptable",
    "report (?:a|the|my) \\w+",
    "never (?:came|arrived|showed)",
    "disrespect\\w*",
    "impolite",
    "damaged",
    "(?:arrived|came) (?:broken|torn|wet)",
    // rw
    "ikirego",
    "ku(?:mu|ba)?rega",
    "kwinubira",
    "yantutse",
    "yantuka",
    "yanyishyuje (?:menshi|ayarenze)",
    "yansuzuguye",
    "yanshinyaguriye",
    "[bcyzr]yangiritse",
    // fr
    "plainte",
    "(?:me )?plaindre",
    "reclamation",
    "malpoli",
    "impoli",
    "insulte",
    "mal parle",
    "desagreable",
    "manque de respect",
    "abimee?s?",
    "endommagee?s?",
    "(?:arrivee?s?|recue?s?|livree?s?) (?:cassee?s?|dechiree?s?|mouillee?s?)",
    "trop cher",
    "inacceptable",
    "signaler (?:un|une|le|la|mon|ma) \\w+",
  ].map((word) => `\\b${word}\\b`).join("|"),
);

// Words that judge without saying who or what ("nabi", "terrible"): a complaint only beside a
// subject it can be about ("umushoferi yanshyize nabi", "serivisi ni mbi"); alone they describe the
// sender ("ndumva meze nabi": I feel unwell; "a terrible headache").
const JUDGES = /\b(?:nabi|mbi|bad|terrible|awful|horrible|nul(?:le)?)\b/;

// What a complaint is about, named for staff (in English, like every ticket reason), most
// specific first. A service's subject (the people and things the services provide) routes the
// complaint to a person; a payment alone does not ("he owes me 2 millions and refuses to pay,
// can I file a complaint" is a legal matter).
const SUBJECTS: ReadonlyArray<{ name: string; pattern: RegExp; service: boolean }> = [
  {
    name: "the driver",
    pattern: /\b(driver|rider|moto|motard|chauffeur|taxi|umushoferi|shoferi|umumotari|motari)\b/,
    service: true,
  },
  {
    name: "the waiter",
    pattern: /\b(waiter|waitress|serveur|serveuse|umuseriveri|umuserveri)\b/,
    service: true,
  },
  {
    name: "a vendor",
    pattern: /\b(vendor|seller|shop|umucuruzi|vendeur|vendeuse|marchand|boutique|iduka)\b/,
    service: true,
  },
  {
    name: "a delivery",
    pattern: /\b(delivery|delivered|livraison|livre|livreur|yagejeje|kugeza)\b/,
    service: true,
  },
  {
    name: "a package",
    pattern: /\b(box|boxes|package|parcel|carton|colis|paquet|ikarito|ipaki|amakarito)\b/,
    service: true,
  },
  { name: "an order", pattern: /\b(order|commande|natumije|itumiza)\b/, service: true },
  {
    name: "the venue",
    pattern:
      /\b(restaurant|resto|hotel|bar|venue|cafe|iresitora|resitora|hoteli|akabari|restoran)\b/,
    service: true,
  },
  {
    name: "a payment",
    pattern:
      /\b(paid|payment|charged|overcharg\w*|money|paiement|paye|payer|argent|amafaranga|yanyishyuje)\b/,
    service: false,
  },
  { name: "the service", pattern: /\b(service|serivisi)\b/, service: true },
];

// Whether the message complains, and about what (null: no complaint; no subject: one we do not
// know).
function complaintOf(text: string): { subject?: (typeof SUBJECTS)[number] } | null {
  const words = plain(text);
  const subject = SUBJECTS.find(({ pattern }) => pattern.test(words));
  if (!COMPLAINS.test(words) && !(subject && JUDGES.test(words))) return null;
  return subject ? { subject } : {};
}

/**
 * The reason of a ticket for a message that complains: "complaint about the
 * driver", or "complaint" when it names nothing we know; null when the
 * message does not complain (asking for a person, a question).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { complaintReason } from "./complaint.ts";
 * assert.equal(complaintReason("the driver was rude and overcharged me"), "complaint about the driver");
 * assert.equal(complaintReason("I want to talk to a person"), null);
 * ```
 */
export function complaintReason(text: string): string | null {
  const complaint = complaintOf(text);
  if (complaint === null) return null;
  return complaint.subject ? `complaint about ${complaint.subject.name}` : "complaint";
}

// A complaint that asks for a lawyer or a court is legal intake's.
const LEGAL = /\b(lawyer|advocate|court|avocat|tribunal|justice|avoka|urukiko|umunyamategeko)\b/;

/** What {@link complainsAboutService} needs besides the text. */
export interface ComplaintOptions {
  /**
   * The person is in a flow that just quoted them: words about the price are
   * about that quote. @default false
   */
  inFlow?: boolean;
}

// Words about a price just quoted, in the three languages.
const QUOTE_REACTION = /\b(?:trop cher|too expensive|bihenze)\b/g;

/**
 * Whether a message complains about one of the services: a driver, a waiter,
 * a vendor, a delivery, an order, a venue or the service itself ("Mfite
 * ikibazo, umushoferi yanshyize nabi", "le serveur était désagréable"). Such a
 * message is for a person, not a new ride or order, whatever service its
 * words name; a complaint that asks for a lawyer or a court is legal intake's.
 *
 * @example
 * ```ts
 * import { complainsAboutService } from "./complaint.ts";
 * complainsAboutService("the driver was rude and overcharged me"); // true
 * complainsAboutService("plainte contre mon employeur, je veux un avocat"); // false
 * ```
 */
export function complainsAboutService(
  text: string,
  options: ComplaintOptions = {},
): boolean {
  // Mid-flow, "c'est trop cher" answers the flow's own quote: a haggle, not a complaint.
  const heard = options.inFlow ? plain(text).replace(QUOTE_REACTION, " ") : text;
  return complaintOf(heard)?.subject?.service === true && !LEGAL.test(plain(text));
}
