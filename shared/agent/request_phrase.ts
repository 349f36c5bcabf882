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
import { normalizeText, wordsOf } from "./text_features.ts";

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
// stems opens a request; "ushaka" (you want) or "yashakaga" (he wanted) does not.
const RW_STEMS = ["ndashak", "nshak", "nashak", "nkeney", "ndakeney", "ndifuz", "nifuz"]
  .map(normalizeText);
const RW_WORDS = new Set(["mwampa", "mumpe", "mpa", "nyoherereza"].map(normalizeText));

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
  ]
    .map(normalizeText),
);

// Where clauses part: punctuation and the words that join two thoughts.
const CLAUSE_BREAK = /[,.;:!?\n]+|\s(?:but|then|mais|puis|ariko|maze)\s/i;

/**
 * The new request a message makes: the words after its request opener, or
 * null when no clause opens with one (a story, a description, an answer).
 *
 * @example
 * ```ts
 * import { newRequest } from "@shared/agent/request_phrase.ts";
 * newRequest("Ndashaka kugura imiti"); // "kugura imiti"
 * newRequest("a man owes me 2,000,000 and no longer answers his phone"); // null
 * ```
 */
export function newRequest(text: string): string | null {
  for (const clause of text.split(CLAUSE_BREAK)) {
    const words = wordsOf(normalizeText(clause));
    let at = 0;
    while (at < words.length && LEAD_INS.has(words[at])) at++;
    const rest = words.slice(at);
    const length = openerLength(rest);
    if (length === 0) continue;
    const object = rest.slice(length);
    // "I need it delivered", "je la veux": the object points back at the flow's own thing.
    if (object.length === 0 || POINTS_BACK.has(object[0])) continue;
    return object.join(" ");
  }
  return null;
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
