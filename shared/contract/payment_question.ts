/**
 * How to pay, asked before anything is bought ("Can I pay with MoMo?", « Je peux payer par
 * MoMo ? », "nakwishyura na MoMo?", "do you accept cash?"): a question about the business, which
 * it answers from its own data, never a service to route to or a thing to search. Paying a named
 * thing ("my electricity bill", « ma facture ») is no such question.
 *
 * @module
 */
import { type Language, phraseBook } from "./language.ts";
import { paymentRequest, payStep } from "./request_phrase.ts";

/** A way to pay a customer may ask about. */
export type PaymentMeans = "momo" | "on_delivery" | "card" | "bank" | "cash";

// Each way, tried in this order: "cash on delivery" is paying on delivery, "carte bancaire" and
// "bank card" a card, not a transfer.
const MEANS_NAMED: ReadonlyArray<readonly [PaymentMeans, RegExp]> = [
  ["momo", /\b(?:momo|mobile\s*money|(?:mtn|airtel)\s*money)\b/i],
  [
    "on_delivery",
    /\b(?:on\s+delivery|when\s+(?:it|they)\s+(?:arrives?|comes?)|(?:bi|i)?maze\s+kungeraho|bingezeho|nibingeraho|nibimara\s+kungeraho)\b|(?:^|\s)[aà]\s+la\s+livraison\b/i,
  ],
  ["card", /\b(?:(?:credit|debit|bank)\s*card|carte(?:\s+bancaire)?|visa|mastercard|ikarita)\b/i],
  [
    "bank",
    /\b(?:bank(?:\s*transfer)?|transfer\s+to\s+your\s+account|virement|banque|banki|kuri\s+konti)\b/i,
  ],
  ["cash", /\b(?:cash|esp[eè]ces|liquide|(?:amafaranga\s+)?mu\s+ntoki)\b/i],
];

// A way to pay named, any of them.
const MEANS = new RegExp(MEANS_NAMED.map(([, pattern]) => pattern.source).join("|"), "i");

/** The way to pay the words ask about ("can I pay by bank transfer?": `bank`), or null. */
export function paymentMeansAsked(text: string): PaymentMeans | null {
  return MEANS_NAMED.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

const say = phraseBook({
  on_delivery: {
    en: "paying on delivery",
    rw: "kwishyura ibyo waguze bimaze kukugeraho",
    fr: "le paiement à la livraison",
  },
  card: { en: "paying by card", rw: "kwishyura n'ikarita", fr: "le paiement par carte" },
  bank: { en: "a bank transfer", rw: "kwishyura unyuze kuri banki", fr: "le virement bancaire" },
  cash: { en: "paying in cash", rw: "kwishyura mu ntoki", fr: "le paiement en espèces" },
  otherMeans: {
    en:
      "{brand} takes MoMo here in the chat. Whether {means} is possible, I cannot tell you: a person from the team can.",
    rw:
      "{brand} yishyurwa na MoMo hano mu kiganiro. Niba {means} bishoboka, sinabikubwira: umuntu wo mu itsinda arabikubwira.",
    fr:
      "{brand} accepte MoMo ici dans la discussion. Pour {means}, je ne peux pas vous le confirmer : une personne de l'équipe peut vous répondre.",
  },
});

/**
 * The honest answer to a way of paying other than MoMo, which only the business knows ("can I
 * pay by bank transfer?"): MoMo is taken here, the rest a person can tell. Null for MoMo or no
 * way named, which the caller answers as it does.
 */
export function otherMeansAnswer(
  text: string,
  reader: { language: Language; brand: string },
): string | null {
  const means = paymentMeansAsked(text);
  if (!means || means === "momo") return null;
  return say("otherMeans", reader.language, {
    brand: reader.brand,
    means: say(means, reader.language),
  });
}

// Paying or accepting, in en/fr/rw ("kwishyura", "nakwishyura", "mwakira", "acceptez").
const PAYS_OR_TAKES =
  /\b(?:pay(?:ing|ment)?|accept(?:ez|e|er|s)?|take|payer|paiement|r[eè]gler|\w*ishyur\w*|mwakira|mwemera)\b/i;

/**
 * Whether `text` asks how the business is paid (a way to pay, or paying at all with no thing
 * named), not a payment of something.
 *
 * @example
 * ```ts
 * import { asksHowToPay } from "@shared/contract/payment_question.ts";
 * asksHowToPay("Je peux payer par MoMo ?"); // true
 * asksHowToPay("I want to pay my electricity bill"); // false
 * ```
 */
export function asksHowToPay(text: string): boolean {
  if (paymentRequest(text) !== null) return false;
  return payStep(text) !== null || (MEANS.test(text) && PAYS_OR_TAKES.test(text));
}
