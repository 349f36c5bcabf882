/**
 * How to pay, asked before anything is bought ("Can I pay with MoMo?", « Je peux payer par
 * MoMo ? », "nakwishyura na MoMo?", "do you accept cash?"): a question about the business, which
 * it answers from its own data, never a service to route to or a thing to search. Paying a named
 * thing ("my electricity bill", « ma facture ») is no such question.
 *
 * @module
 */
import { paymentRequest, payStep } from "./request_phrase.ts";

// A way to pay named: mobile money, cash or a card.
const MEANS =
  /\b(?:momo|mobile\s*money|(?:mtn|airtel)\s*money|cash|esp[eè]ces|liquide|(?:credit|debit|bank)\s*card|carte(?:\s+bancaire)?|visa|mastercard|(?:amafaranga\s+)?mu\s+ntoki)\b/i;

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
