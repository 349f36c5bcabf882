/**
 * Whether a message in the middle of a flow asks for something new, and
 * what. A flow collecting free text (a case story, a description, an
 * address, a note) gets answers full of money, amounts and places ("he owes
 * me 2,000,000 and no longer answers his phone"); those words name another
 * agent's topic without asking for it. A new request has a shape instead: a
 * clause that opens with a first-person want or a request verb ("I want to
 * buy medicine", "Ndashaka kugura imiti", "je veux acheter des
 * médicaments"), and what follows it is what is asked for.
 *
 * Read on {@linkcode normalizeText}'s form (no accents, punctuation as
 * spaces, doubled letters as one: "need" is "ned").
 *
 * @module
 */
import { normalizeText, wordsOf } from "./normalize_text.ts";
import { expandShorthands } from "./sms_shorthands.ts";

// Openers of a request, in the three languages: a first-person want or need, or a verb that
// asks to be given or sent something. Matched at a clause's start only: "he said I need to
// pay" tells what someone said, it asks nothing.
const OPENERS = [
  // English
  "i want",
  "i wanna",
  "i need",
  "i would like",
  "i d like",
  "i am looking for",
  "i m looking for",
  "im looking for",
  "looking for",
  "can i get",
  "can i have",
  "could i get",
  "could i have",
  "can you get me",
  "give me",
  "get me",
  "send me",
  // French
  "je veux",
  "je voudrais",
  "j aimerais",
  "j ai besoin",
  "il me faut",
  "je cherche",
  "je souhaite",
  "je desire",
  "donnez moi",
  "donne moi",
  "envoyez moi",
  "pouvez vous me",
].map((opener) => normalizeText(opener).split(" "));

// Kinyarwanda carries the first person and the tense in the verb's prefix: "ndashaka",
// "nshaka", "nashakaga" (I want, I wanted), "nkeneye", "ndakeneye" (I need), "ndifuza",
// "nifuza" (I wish), "mwampa", "mumpe" (would you give me). A word opening with one of these
// stems opens a request; "ushaka" (you want) or "yashakaga" (he wanted) does not. "We" wants
// as "I" does ("turashaka", "twashakaga", "dukeneye"); bringing is asked with the object "me"
// or "us" inside the verb ("munzanire", "mwanzanira", "muzanzanire": bring me, "muduhe": give us).
const RW_STEMS = [
  "ndashak",
  "nshak",
  "nashak",
  "nkeney",
  "ndakeney",
  "ndifuz",
  "nifuz",
  "turashak",
  "twashak",
  "dukeney",
  "turakeney",
  "twifuz",
  "munzan",
  "mwanzan",
  "muzanzan",
  "nzanir",
  "mudushak",
  "mutuzan",
  "mwatuzan",
].map(normalizeText);
const RW_WORDS = new Set(
  ["mwampa", "mumpe", "mpa", "nyoherereza", "mwampe", "muzampe", "muduhe", "mwaduha"].map(
    normalizeText,
  ),
);

// Words that may come before the opener without making it less of a request: greetings,
// courtesies, "ok", "now", "also", "and", "no" ("ok, now I want a taxi").
const LEAD_INS = new Set(
  [
    "hi",
    "hello",
    "hey",
    "ok",
    "okay",
    "yes",
    "no",
    "and",
    "also",
    "now",
    "please",
    "so",
    "bonjour",
    "salut",
    "bonsoir",
    "oui",
    "non",
    "et",
    "aussi",
    "maintenant",
    "stp",
    "svp",
    "alors",
    "muraho",
    "mwaramutse",
    "mwiriwe",
    "yego",
    "oya",
    "na",
    "kandi",
    "ubu",
    "noneho",
    "none",
    "nonaha",
  ].map(normalizeText),
);

// Pronouns that point back at what the flow is about, in the three languages.
const POINTS_BACK = new Set(
  [
    "it",
    "them",
    "this",
    "that",
    "these",
    "those",
    "one",
    "le",
    "la",
    "les",
    "ca",
    "celui",
    "celle",
    "cyo",
    "byo",
    "yo",
    "uwo",
    "iyo",
    // "Another (one)" of the thing already said ("nta gas mfite, mwanzanira indi?").
    "another",
    "indi",
    "ikindi",
    "ibindi",
    "izindi",
  ]
    .map(normalizeText),
);

// Where clauses part: punctuation and the words that join two thoughts.
const CLAUSE_BREAK = /[,.;:!?\n]+|\s(?:but|then|mais|puis|ariko|maze)\s/i;

/** Options for {@linkcode newRequest}. */
export interface NewRequestOptions {
  /**
   * Whether a request for a step of a flow ("to pay with momo", "delivery to
   * Kimironko at 7pm", "to pick up my order tomorrow") is passed over as the
   * flow's own, as a request pointing back at the flow's thing is. Set it in
   * a flow that has steps; at the front desk paying is a service of its own.
   * @default false
   */
  skipFlowSteps?: boolean;
}

/**
 * The new request a message makes: the words after its request opener, or
 * null when no clause opens with one (a story, a description, an answer).
 * A landmark the request names ("a house near a pharmacy") is where, not
 * what: the object stops before it.
 *
 * @example
 * ```ts
 * import { newRequest } from "@shared/contract/request_phrase.ts";
 * newRequest("Ndashaka kugura imiti"); // "kugura imiti"
 * newRequest("I want a house near a pharmacy"); // "a house"
 * newRequest("a man owes me 2,000,000 and no longer answers his phone"); // null
 * newRequest("je veux payer par momo", { skipFlowSteps: true }); // null
 * ```
 */
export function newRequest(text: string, options: NewRequestOptions = {}): string | null {
  for (const object of requestObjects(text)) {
    if (options.skipFlowSteps && isFlowStep(object)) continue;
    return object.join(" ");
  }
  return null;
}

/**
 * The step of a flow a message asks for ("to pay with momo", "kwishyura na
 * momo", "payer en especes a la livraison"), or null when it asks for none.
 * Paying for what is being ordered, having it delivered or picking it up is
 * the flow's own next step, whichever service's words it uses; paying a
 * named thing ("to pay my electricity bill") is not a step.
 *
 * @example
 * ```ts
 * import { flowStep } from "@shared/contract/request_phrase.ts";
 * flowStep("I want to pay with momo"); // "to pay with momo"
 * flowStep("I want to pay my electricity bill"); // null
 * ```
 */
export function flowStep(text: string): string | null {
  for (const object of requestObjects(text)) {
    if (isFlowStep(object)) return object.join(" ");
  }
  for (const clause of text.split(CLAUSE_BREAK)) {
    const step = framedPayStep(wordsOf(normalizeText(clause)));
    if (step !== null) return step.join(" ");
  }
  return null;
}

/**
 * The request to pay the flow's own thing a message makes, with an opener or
 * without ("I want to pay with momo", "how do I pay", "ndashaka kwishyura na
 * momo", "nishyura nte?", "je paie maintenant"), or null. The router keeps
 * such a message with the flow ({@linkcode flowStep}); an ordering flow
 * answers it with its payment step, so both read it the same way. Paying a
 * named thing ("my electricity bill") is none.
 *
 * @example
 * ```ts
 * import { payStep } from "@shared/contract/request_phrase.ts";
 * payStep("how do I pay"); // "pay"
 * payStep("I want delivery to Kimironko"); // null
 * payStep("I want to pay my electricity bill"); // null
 * ```
 */
export function payStep(text: string): string | null {
  for (const object of requestObjects(text)) {
    const words = INFINITIVE.has(object[0]) ? object.slice(1) : object;
    if (words.length > 0 && isPayWord(words[0]) && isFlowStep(object)) return object.join(" ");
  }
  for (const clause of text.split(CLAUSE_BREAK)) {
    const step = framedPayStep(wordsOf(normalizeText(clause)));
    if (step !== null) return step.join(" ");
  }
  return null;
}

/** A payment a message asks for, of something other than the flow's thing. */
export interface PaymentAsked {
  /** What is paid, normalised: the words after the pay verb ("my electricity bil"). */
  paid: string;
  /**
   * Whether it is surely no flow's thing: a utility, fees, airtime, a tax
   * or a loan ("my electricity bill", "les frais scolaires", "umuriro"), or
   * someone paid ("to my brother", "à mon propriétaire", "kuri 0788…").
   * Otherwise what is paid may still be the flow's own (the premium at
   * Insurance, the rent in Property): the caller reads it.
   */
  obligation: boolean;
}

/**
 * The payment a message asks for of something other than the flow's own
 * thing: a bill, a utility, fees, airtime, another person ("I want to pay my
 * electricity bill", "ndashaka kwishyura fagitire y'amazi", "je veux payer
 * le loyer à mon propriétaire"); null when the message asks for no payment,
 * or for paying the flow's thing ("I want to pay with momo", "je veux payer
 * ma commande"). Mid-flow it is a new request for the payments service.
 *
 * @example
 * ```ts
 * import { paymentRequest } from "@shared/contract/request_phrase.ts";
 * paymentRequest("I want to pay my electricity bill"); // { paid: "my electricity bil", obligation: true }
 * paymentRequest("I want to pay with momo"); // null
 * ```
 */
export function paymentRequest(text: string): PaymentAsked | null {
  for (const object of requestObjects(text)) {
    const words = INFINITIVE.has(object[0]) ? object.slice(1) : object;
    if (words.length < 2 || !isPayWord(words[0]) || isFlowStep(object)) continue;
    const paid = words.slice(1);
    return { paid: paid.join(" "), obligation: namesObligation(paid) || namesPayee(paid) };
  }
  return null;
}

// What people pay that no flow here sells: utilities, fees, airtime, taxes, loans, in the three
// languages (read on normalizeText's form). A bare "bill" is not among them: at the waiter "the
// bill" is the meal's.
const OBLIGATIONS = new Set(
  [
    // English
    "electricity",
    "utility",
    "utilities",
    "internet",
    "wifi",
    "tv",
    "school",
    "tuition",
    "fees",
    "airtime",
    "bundle",
    "bundles",
    "tax",
    "taxes",
    "loan",
    // French
    "electricite",
    "scolaire",
    "scolaires",
    "scolarite",
    "minerval",
    "impot",
    "impots",
    "pret",
    "abonnement",
    "unites",
    // Kinyarwanda
    "umuriro",
    "amashanyarazi",
    "ishuri",
    "minerivali",
    "umusoro",
    "imisoro",
    "inguzanyo",
    "inite",
  ].map(normalizeText),
);
// Water is a utility only with its bill ("my water bill", "fagitire y'amazi"): at the waiter
// "the water" is a bottle on the order.
const WATER = new Set(["water", "eau", "amazi"].map(normalizeText));
const BILLS = new Set(["bill", "bills", "invoice", "facture", "fagitire"].map(normalizeText));

function namesObligation(paid: readonly string[]): boolean {
  if (paid.some((word) => OBLIGATIONS.has(word))) return true;
  return paid.some((word) => WATER.has(word)) && paid.some((word) => BILLS.has(word));
}

// Someone paid: "to my brother", "à mon propriétaire", "kuri 0788123456", "to 0788…".
const PAYEE_MARKS = new Set(
  ["my", "his", "her", "our", "mon", "ma", "mes", "son", "sa", "notre", "phone"].map(
    normalizeText,
  ),
);

function namesPayee(paid: readonly string[]): boolean {
  return paid.some((word, at) =>
    STEP_WHERE.has(word) && at + 1 < paid.length && PAYEE_MARKS.has(paid[at + 1])
  );
}

/**
 * A message without the landmarks it names ("near a pharmacy", "hafi ya
 * gare", "pres d une pharmacie"), normalised, its clauses joined by commas:
 * from the landmark's word to the clause's end is where something should be,
 * not what is asked for. Null when the message names no landmark.
 *
 * @example
 * ```ts
 * import { withoutLandmarks } from "@shared/contract/request_phrase.ts";
 * withoutLandmarks("I want a house near a pharmacy"); // "i want a house"
 * withoutLandmarks("I want a house"); // null
 * ```
 */
export function withoutLandmarks(text: string): string | null {
  let named = false;
  const clauses = text.split(CLAUSE_BREAK).map((clause) => {
    const words = wordsOf(normalizeText(clause));
    const before = beforeLandmark(words);
    if (before.length < words.length) named = true;
    return before.join(" ");
  });
  return named ? clauses.filter((clause) => clause !== "").join(", ") : null;
}

// The objects of the clauses that open with a request, in order; an object pointing back at the
// flow's own thing ("I need it delivered", "je la veux") is none.
function* requestObjects(text: string): Generator<string[]> {
  for (const clause of text.split(CLAUSE_BREAK)) {
    // SMS forms ("nshk", "nkny", "jveux") open a request as their full words do.
    const words = wordsOf(expandShorthands(normalizeText(clause)));
    let at = 0;
    while (at < words.length && LEAD_INS.has(words[at])) at++;
    const rest = words.slice(at);
    const length = openerLength(rest);
    if (length === 0) continue;
    const object = beforeLandmark(rest.slice(length));
    if (object.length === 0 || POINTS_BACK.has(object[0])) continue;
    yield object;
  }
}

// Where something should be, told by what it is near, in the three languages.
const LANDMARKS = [
  "near",
  "nearby",
  "close to",
  "next to",
  "beside",
  "opposite",
  "behind",
  "not far from",
  "hafi",
  "iruhande",
  "imbere ya",
  "inyuma ya",
  "pres de",
  "pres d",
  "pres du",
  "a cote de",
  "a cote d",
  "a cote du",
  "proche de",
  "proche d",
  "proche du",
  "en face de",
  "en face d",
  "en face du",
  "non loin de",
  "derriere",
  // Home is where the thing is wanted, not a house asked for ("out of gas at home").
  "at home",
  "at my place",
  "a la maison",
  "chez moi",
  "mu rugo",
  "murugo",
  // Who or what it is for is not what is asked ("un extincteur pour mon restaurant", "a
  // wardrobe for my bedroom", "a costume for my graduation").
  "for my",
  "for our",
  "for his",
  "for her",
  "pour mon",
  "pour ma",
  "pour mes",
  "pour notre",
  "pour nos",
].map((phrase) => normalizeText(phrase).split(" "));

// The words before the first landmark (all of them when there is none).
function beforeLandmark(words: readonly string[]): string[] {
  for (let at = 0; at < words.length; at++) {
    const found = LANDMARKS.some((phrase) =>
      at + phrase.length <= words.length && phrase.every((word, i) => words[at + i] === word)
    );
    if (found) {
      // "and" before a new want ends the landmark: "I'm at home and need bread" asks for
      // bread, which the rest of the clause says.
      const resumes = words.findIndex((word, i) =>
        i > at && AND_WORDS.has(word) && RESUMING.has(words[i + 1] ?? "")
      );
      return resumes === -1
        ? words.slice(0, at)
        : [...words.slice(0, at), ...beforeLandmark(words.slice(resumes + 1))];
    }
  }
  return [...words];
}

// Joining words, and the wants that start a new request after them ("and need", "et il me
// faut", "kandi nkeneye", "na nshaka"), in the three languages.
const AND_WORDS = new Set(["and", "et", "kandi", "na"]);
const RESUMING = new Set(
  [
    "need",
    "want",
    "i",
    "we",
    "send",
    "bring",
    "je",
    "il",
    "j",
    "on",
    "envoyez",
    "apportez",
    "nkeneye",
    "ndashaka",
    "nshaka",
    "nifuza",
    "dukeneye",
    "turashaka",
    "mumpe",
    "munzanire",
  ].map(normalizeText),
);

// The verbs and nouns of a flow's steps: paying for it, delivering it, picking it up.
const STEP_HEADS = [
  "pay",
  "paying",
  "payment",
  "deliver",
  "delivery",
  "delivered",
  "pick up",
  "pickup",
  "collect",
  "payer",
  "paiement",
  "regler",
  "livrer",
  "livraison",
  "etre livre",
  "recuperer",
  "kwishyura",
  "kwishyurira",
  "kuzanirwa",
  "kugezwaho",
].map((phrase) => normalizeText(phrase).split(" "));

// The paying heads among them, with the conjugations a message without a request opener uses
// ("how do I pay", "je paie maintenant", "nishyura nte", "ndishyura ubu"): Kinyarwanda puts the
// person and tense before the stem "ishyur".
const PAY_WORDS = new Set(
  ["pay", "paying", "payment", "payer", "paie", "paye", "paies", "payes", "paierai", "payerai"]
    .concat(["paiement", "regler", "regle"]).map(normalizeText),
);
const RW_PAY_STEM = "ishyur";

function isPayWord(word: string): boolean {
  return PAY_WORDS.has(word) || (word.includes(RW_PAY_STEM) && !word.startsWith("ubw"));
}

// What may follow a step's verb and keep it a step: how (with momo, par momo, na momo, cash)
// and when (now, tomorrow, at 7pm); never a thing paid for.
const STEP_HOW = new Set(
  [
    "with",
    "by",
    "via",
    "using",
    "through",
    "in",
    "on",
    "at",
    "cash",
    "now",
    "later",
    "today",
    "tomorrow",
    "tonight",
    "momo",
    "mobile",
    "par",
    "avec",
    "en",
    "maintenant",
    "demain",
    "aujourd",
    "ce",
    "na",
    "ubu",
    "ejo",
    "nonaha",
    "ako",
    "nte",
  ].map(normalizeText),
);
// Where to, which keeps a delivery or a pickup a step ("delivery to Kimironko", "i Gisozi"), and
// a payment only when how follows ("kuri mobile money", "a la livraison"): "pay to my landlord"
// names who is paid.
const STEP_WHERE = new Set(["to", "a", "au", "kuri", "ku", "i"].map(normalizeText));
// The way or the moment a payment is made, after "where to" ("kuri mobile money", "à la
// livraison", "on delivery").
const PAY_MEANS = new Set(
  ["momo", "mobile", "cash", "delivery", "livraison", "especes", "airtel", "mtn"].map(
    normalizeText,
  ),
);
// Articles that may stand between "where to" and the way ("à la livraison").
const ARTICLES = new Set(["la", "le", "l", "the"].map(normalizeText));
// An amount paid for the flow's thing ("pay 5000 with momo"): what follows it decides.
const AMOUNT = new Set(["num", "rwf", "frw", "francs", "franc", "k"].map(normalizeText));
// "For" before what is paid for ("pay for it", "pour ma commande").
const FOR = new Set(["for", "pour"].map(normalizeText));
// "My order", "la commande": the flow's own thing, after a possessive or an article.
const POSSESSIVES = new Set(["my", "the", "our", "ma", "la", "mon", "notre"].map(normalizeText));
const ORDER_WORDS = new Set(
  ["order", "orders", "commande", "commandes", "food", "medicine", "ibyo", "ibyanjye"].map(
    normalizeText,
  ),
);

// Infinitive markers before a step's verb: "to pay", "de payer" ("j'ai besoin de payer").
const INFINITIVE = new Set(["to", "de", "d"].map(normalizeText));

// An object that opens with a step ("to pay with momo", "delivery to Kimironko", "payer par
// momo"): the infinitive's "to" aside, a step's verb followed by nothing or by how or when, by
// the flow's own order, or (a delivery or pickup) by where.
function isFlowStep(object: readonly string[]): boolean {
  const words = INFINITIVE.has(object[0]) ? object.slice(1) : object;
  const head = STEP_HEADS.find((phrase) =>
    phrase.length <= words.length && phrase.every((word, i) => words[i] === word)
  );
  if (head === undefined) return false;
  const next = words.slice(head.length);
  return isPayWord(head[0]) ? paysTheFlow(next) : isStepRest(next, true);
}

// What follows a step's verb keeps it a step: nothing, how or when, the flow's own thing (`it`,
// "my order"), or where to when `where` (a delivery, never a payee).
function isStepRest(next: readonly string[], where: boolean): boolean {
  if (next.length === 0 || STEP_HOW.has(next[0])) return true;
  if (where && STEP_WHERE.has(next[0])) return true;
  if (POINTS_BACK.has(next[0])) return next.length === 1 || STEP_HOW.has(next[1]);
  return POSSESSIVES.has(next[0]) && next.length > 1 && ORDER_WORDS.has(next[1]);
}

// After a pay verb: an amount is the order's ("pay 5000 with momo"); "for it" / "pour ma
// commande" is the flow's thing; "kuri mobile money", "à la livraison" how. Anything else names
// something else paid for, or someone paid ("my electricity bill", "le loyer", "my landlord").
function paysTheFlow(words: readonly string[]): boolean {
  let next = words;
  while (next.length > 0 && AMOUNT.has(next[0])) next = next.slice(1);
  if (next.length > 0 && FOR.has(next[0])) next = next.slice(1);
  if (next.length > 1 && STEP_WHERE.has(next[0])) {
    const way = ARTICLES.has(next[1]) ? next[2] : next[1];
    return way !== undefined && PAY_MEANS.has(way);
  }
  return isStepRest(next, false);
}

// The words that may frame a pay verb in a question or a promise without a request opener ("how
// do I pay", "I'll pay now", "can I pay", "comment je paie", "je paie", "quand payer"): the
// clause is about paying the flow's thing when the verb's rest is.
const PAY_FRAME = new Set(
  [
    "how",
    "when",
    "where",
    "do",
    "does",
    "can",
    "could",
    "should",
    "shall",
    "will",
    "must",
    "i",
    "we",
    "l",
    "ll",
    "comment",
    "quand",
    "ou",
    "je",
    "j",
    "on",
    "nous",
    "peux",
    "puis",
    "dois",
    "vais",
    "est",
    "ce",
    "que",
    "qu",
  ].map(normalizeText),
);

// A clause that pays without an opener: framing words, a pay verb, and the way, the time or the
// flow's own thing after it ("how do I pay", "pay with momo please", "ndishyura ubu").
function framedPayStep(clause: readonly string[]): string[] | null {
  let at = 0;
  while (at < clause.length && (LEAD_INS.has(clause[at]) || PAY_FRAME.has(clause[at]))) at++;
  if (at >= clause.length || !isPayWord(clause[at])) return null;
  const rest = clause.slice(at + 1).filter((word) => !LEAD_INS.has(word));
  return paysTheFlow(rest) ? clause.slice(at) : null;
}

// How many words of `words`' start are a request opener (the Kinyarwanda verb is one word and
// what it wants: "kugura" after "ndashaka" is asked for), or 0.
function openerLength(words: readonly string[]): number {
  if (words.length === 0) return 0;
  const first = words[0];
  if (RW_WORDS.has(first)) return 1;
  if (RW_STEMS.some((stem) => first.startsWith(stem))) return 1;
  const opener = OPENERS.find((phrase) =>
    phrase.length <= words.length && phrase.every((word, i) => words[i] === word)
  );
  return opener?.length ?? 0;
}
