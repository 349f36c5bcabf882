/**
 * Whether a message follows up something already bought (an order that is
 * late or arrived damaged, an invoice, a refund), in en, rw and fr. A tenant
 * whose agents do not take these (it runs no waiter with an order status, no
 * payments desk) hands them to a person instead of asking which service.
 *
 * @module
 */

// Lower case, accents off, apostrophes one kind: "abîmée" reads "abimee".
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").replace(/[’‘`]/g, "'").toLowerCase();
}

// What was bought: an order (its number too, "A-1001"), a delivery, goods received.
const BOUGHT = new RegExp(
  [
    "orders?",
    "ordered",
    "delivery",
    "delivered",
    "arrived",
    "received",
    "purchase",
    "commandes?",
    "commande",
    "livraison",
    "livree?s?",
    "recue?s?",
    "arrivee?s?",
    "achat",
    "itumiza",
    "ibyo natumije",
    "natumije",
    "naguze",
    "byageze",
    "yageze",
    // "nahawe" (I was given), "komande" (borrowed: "komande yanjye iri he?")
    "nahawe",
    "komande",
    "[a-z]-\\d{3,}",
  ].map((word) => `\\b${word}\\b`).join("|"),
);

// What goes wrong after buying, or is asked of it, in the three languages.
const AFTER_SALE = new RegExp(
  [
    // en
    "late",
    "delayed",
    "not (?:yet )?(?:arrived|come|received|delivered)",
    "(?:hasn't|hasnt|has not|haven't|havent|have not|didn't|didnt|did not|never) (?:arrived|come|came|got|received|been delivered)",
    "still waiting",
    "where is my",
    "invoices?",
    "receipts?",
    "refund(?:ed)?",
    "money back",
    "damaged",
    "broken",
    "torn",
    "wet",
    "wrong (?:item|items|size|colou?r|paper|order)",
    "missing",
    "return(?:ed|ing)? (?:it|them|the)",
    // fr
    "en retard",
    "retard",
    "pas (?:encore )?(?:arrivee?s?|recue?s?|livree?s?)",
    "toujours pas",
    "ou (?:est|en est) ma",
    "factures?",
    "recus?",
    "rembourse\\w*",
    "abimee?s?",
    "endommagee?s?",
    "cassee?s?",
    "dechiree?s?",
    "mouillee?s?",
    "manque",
    "manquant\\w*",
    "(?:retourner|renvoyer|rendre) (?:la|le|les)",
    // rw
    "ryatinze",
    "byatinze",
    "yatinze",
    "biratinze",
    "riratinze",
    "ntiragera",
    "ntibiragera",
    "ntirirangera",
    "ntibirangera",
    "fagitire",
    "inyemezabuguzi",
    "inyemezabwishyu",
    "nsubizwe",
    "gusubizwa",
    "byangiritse",
    "yangiritse",
    "cyangiritse",
    "ryangiritse",
    "zangiritse",
    "byacitse",
    // where it is ("iri he?"), sending it back ("kuyisubiza", "kubigarura")
    "(?:iri|biri|ziri|ari) he(?:he)?",
    "kuyisubiza",
    "kubisubiza",
    "kuzisubiza",
    "kuyigarura",
    "kubigarura",
  ].map((word) => `\\b${word}\\b`).join("|"),
);

// Money asked back needs no word naming the purchase; an invoice does ("ma facture
// d'électricité" is a bill to pay, not a purchase followed up).
const ALONE = /\b(?:refund(?:ed)?|money back|rembourse\w*|nsubizwe|gusubizwa amafaranga)\b/;

/**
 * Whether `text` follows up a purchase: late or not arrived, damaged or
 * wrong, an invoice or receipt for it, money back.
 *
 * @example
 * ```ts
 * import { followsUpPurchase } from "./follow_up.ts";
 * followsUpPurchase("my order is late"); // true
 * followsUpPurchase("facture pour ma commande A-1001"); // true
 * followsUpPurchase("I need a moto to Remera"); // false
 * ```
 */
export function followsUpPurchase(text: string): boolean {
  const words = plain(text);
  if (ALONE.test(words)) return true;
  // One word is never both: French "reçu" is "received" and "a receipt", and "j'ai reçu une
  // convocation au tribunal" follows up no purchase.
  const bought = spansOf(BOUGHT, words);
  return spansOf(AFTER_SALE, words).some((after) =>
    bought.some((purchase) => purchase.start !== after.start || purchase.end !== after.end)
  );
}

// Where a pattern matches in `text`, each match's first and past-the-last index.
function spansOf(pattern: RegExp, text: string): Array<{ start: number; end: number }> {
  return [...text.matchAll(new RegExp(pattern.source, "g"))].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}
