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
import { expandShorthands, normalizeText, wordsOf } from "./text_features.ts";

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
 * import { newRequest } from "@shared/agent/request_phrase.ts";
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
 * import { flowStep } from "@shared/agent/request_phrase.ts";
 * flowStep("I want to pay with momo"); // "to pay with momo"
 * flowStep("I want to pay my electricity bill"); // null
 * ```
 */
export function flowStep(text: string): string | null {
  for (const object of requestObjects(text)) {
    if (isFlowStep(object)) return object.join(" ");
  }
  return null;
}

/**
 * A message without the landmarks it names ("near a pharmacy", "hafi ya
 * gare", "pres d une pharmacie"), normalised, its clauses joined by commas:
 * from the landmark's word to the clause's end is where something should be,
 * not what is asked for. Null when the message names no landmark.
 *
 * @example
 * ```ts
 * import { withoutLandmarks } from "@shared/agent/request_phrase.ts";
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
    if (found) return words.slice(0, at);
  }
  return [...words];
}

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

// What may follow a step's verb and keep it a step: how (with momo, par momo, na momo, cash),
// when (now, tomorrow, at 7pm) and where to (to Kimironko, i Gisozi); never a thing paid for.
const STEP_NEXT = new Set(
  [
    "with",
    "by",
    "via",
    "using",
    "through",
    "in",
    "on",
    "at",
    "to",
    "cash",
    "now",
    "later",
    "today",
    "tomorrow",
    "tonight",
    "momo",
    "mobile",
    "num",
    "par",
    "avec",
    "en",
    "a",
    "au",
    "maintenant",
    "demain",
    "aujourd",
    "ce",
    "na",
    "kuri",
    "ku",
    "i",
    "ubu",
    "ejo",
    "nonaha",
    "ako",
  ].map(normalizeText),
);
// "My order", "la commande": the flow's own thing, after a possessive or an article.
const POSSESSIVES = new Set(["my", "the", "our", "ma", "la", "mon", "notre"].map(normalizeText));
const ORDER_WORDS = new Set(
  ["order", "orders", "commande", "commandes", "food", "medicine", "ibyo", "ibyanjye"].map(
    normalizeText,
  ),
);

// An object that opens with a step ("to pay with momo", "delivery to Kimironko", "payer par
// momo"): the infinitive's "to" aside, a step's verb followed by nothing or by how, when or
// where, or by the flow's own order.
function isFlowStep(object: readonly string[]): boolean {
  const words = object[0] === "to" ? object.slice(1) : object;
  const head = STEP_HEADS.find((phrase) =>
    phrase.length <= words.length && phrase.every((word, i) => words[i] === word)
  );
  if (head === undefined) return false;
  const next = words.slice(head.length);
  if (next.length === 0 || STEP_NEXT.has(next[0]) || POINTS_BACK.has(next[0])) return true;
  return POSSESSIVES.has(next[0]) && next.length > 1 && ORDER_WORDS.has(next[1]);
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
