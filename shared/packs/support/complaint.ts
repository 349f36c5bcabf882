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
    // rw
    "ikirego",
    "ku(?:mu|ba)?rega",
    "kwinubira",
    "yantutse",
    "yantuka",
    "yanyishyuje (?:menshi|ayarenze)",
    "yansuzuguye",
    "yanshinyaguriye",
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
// specific first.
const SUBJECTS: ReadonlyArray<[string, RegExp]> = [
  [
    "the driver",
    /\b(driver|rider|moto|motard|chauffeur|taxi|umushoferi|shoferi|umumotari|motari)\b/,
  ],
  ["the waiter", /\b(waiter|waitress|serveur|serveuse|umuseriveri|umuserveri)\b/],
  ["a vendor", /\b(vendor|seller|shop|umucuruzi|vendeur|vendeuse|marchand|boutique|iduka)\b/],
  ["a delivery", /\b(delivery|delivered|livraison|livre|livreur|yagejeje|kugeza)\b/],
  ["an order", /\b(order|commande|natumije|itumiza)\b/],
  [
    "the venue",
    /\b(restaurant|resto|hotel|bar|venue|cafe|iresitora|resitora|hoteli|akabari|restoran)\b/,
  ],
  [
    "a payment",
    /\b(paid|payment|charged|overcharg\w*|money|paiement|paye|payer|argent|amafaranga|yanyishyuje)\b/,
  ],
  ["the service", /\b(service|serivisi)\b/],
];

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
  const words = plain(text);
  const subject = SUBJECTS.find(([, pattern]) => pattern.test(words))?.[0];
  if (!COMPLAINS.test(words) && !(subject && JUDGES.test(words))) return null;
  return subject ? `complaint about ${subject}` : "complaint";
}

// The subjects a complaint routes to a person by: the people and things the services provide.
// A payment alone does not ("he owes me 2 millions and refuses to pay, can I file a complaint"
// is a legal matter), nor a complaint that asks for a lawyer or a court.
const SERVICE_SUBJECTS = new Set([
  "the driver",
  "the waiter",
  "a vendor",
  "a delivery",
  "an order",
  "the venue",
  "the service",
]);
const LEGAL = /\b(lawyer|advocate|court|avocat|tribunal|justice|avoka|urukiko|umunyamategeko)\b/;

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
export function complainsAboutService(text: string): boolean {
  const reason = complaintReason(text);
  if (reason === null || LEGAL.test(plain(text))) return false;
  return SERVICE_SUBJECTS.has(reason.replace(/^complaint about /, ""));
}
