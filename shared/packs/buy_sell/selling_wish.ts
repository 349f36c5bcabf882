/**
 * Whether a message is someone selling rather than buying: "I want to sell my Toyota RAV4",
 * "ndashaka kugurisha imodoka", « je veux vendre ma voiture », and a seller asking who would buy
 * ("anyone buying a Subaru Forester?", « qqn achète un Subaru Forester ? », "hari uwagura
 * moto?"). Buy & Sell finds vendors for buyers; a seller is told plainly and offered a person,
 * never searched as an item to buy.
 *
 * @module
 */

const SELLING =
  /\b(sell(ing)? my|i (want|would like|need) to sell|i'?m selling|i am selling|for sale|kugurisha|ndagurisha|ndashaka kugurisha|je (veux |voudrais |souhaite )?vendre|je vends|à vendre|a vendre)\b/i;

// Who would buy it: "anyone buying", "who wants to buy", « quelqu'un achète », « qui veut
// acheter », "hari uwagura", "ninde wagura".
const WHO_BUYS =
  /\b(any ?(one|body) (buying|to buy|want(s|ing)? to buy|interested in buying|who (buys|would buy))|who (buys|would buy|wants to buy)|(quelqu'?un|quelqu un|qqn|qq1|qlq1|kelk1) (qui )?(ach[eè]te|veut acheter|voudrait acheter|int[ée]ress)|qui (ach[eè]te|veut acheter|voudrait acheter)|(hari|ninde|nta) (uwagura|ushaka kugura|wagura))\b/i;

/** Whether the words are someone selling (see the module's doc). */
export function wantsToSell(text: string): boolean {
  return SELLING.test(text) || WHO_BUYS.test(text);
}
