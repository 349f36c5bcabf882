/**
 * Per-message language detection for short WhatsApp texts (English,
 * Kinyarwanda, French) and explicit requests to change the reply language.
 * A naive Bayes model over character n-grams, trained from the same phrases
 * as the intent classifier, does the work: franc alone takes Kinyarwanda for
 * Luba-Lulua and needs longer texts than "ndashaka moto". Messages that carry
 * no language ("ok", "1", "🙏", "taxi") are `null`, so a sticky preference
 * decides.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import { type TrainOptions, trainTextClassifier } from "./intent_classifier.ts";
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import { expandShorthands, normalizeText, wordsOf } from "./text_features.ts";
import { shorthandLanguage } from "@shared/contract/sms_shorthands.ts";
import { changeVerbLanguage } from "./change_verbs.ts";

/** Detects a message's language, or null when it carries none. */
export interface LanguageDetector {
  /**
   * The language `text` is written in, or null when it does not say. With
   * `conversation` (the language the conversation is already in), a reply's
   * English nouns in a Kinyarwanda or French conversation (a product's name,
   * "sugar", "rice", or a whole list: "sugar rice cooking oil soap") are
   * borrowed, no switch: the sentence's frame must say English. Nor does a
   * short courtesy, yes/no or haste ("quickly please", "oui merci") or a
   * proper name ("Groupe Scolaire Remera") change a conversation's language.
   */
  detect(text: string, options?: { conversation?: Language | null }): Language | null;
}

/** Below this confidence the detector says null rather than guess. */
export const LANGUAGE_CONFIDENCE_THRESHOLD = 0.6;

// Words every language uses on WhatsApp, and menu words: alone they say nothing about it.
const NEUTRAL = normalizedSet([
  "ok",
  "oki",
  "okay",
  "k",
  "kk",
  "num",
  "phone",
  "menu",
  "menyu",
  "meni",
  "taxi",
  "moto",
  "pizza",
  "momo",
  "rwf",
  "frw",
  "fanta",
  "primus",
  "lol",
  "hm",
  "hmm",
  "x",
  "urgent",
  "sawa",
]);

// Short answers and courtesies: each says its language outright ("menu stp" is French,
// "yes" is English), whatever the model learnt from longer phrases.
const MARKER_WORDS: Record<Language, readonly string[]> = {
  en: [
    "yes",
    "yeah",
    "yep",
    "no",
    "nope",
    "please",
    "pls",
    "plz",
    "thanks",
    "thank",
    "hello",
    "hi",
  ],
  fr: ["oui", "ouais", "non", "merci", "stp", "svp", "bonjour", "bonsoir", "salut", "accord"],
  rw: [
    "yego",
    "ego",
    "oya",
    "murakoze",
    "nkwinginze",
    "ndakwinginze",
    "ndabinginze",
    "muraho",
    "mwaramutse",
    "mwiriwe",
  ],
};
const MARKERS = new Map<string, Language>(
  (Object.entries(MARKER_WORDS) as Array<[Language, readonly string[]]>).flatMap((
    [language, words],
  ) => words.map((word): [string, Language] => [normalizeText(word), language])),
);

// Words are compared as normalizeText writes them ("hello" is "helo").
function normalizedSet(words: readonly string[]): Set<string> {
  return new Set(words.map(normalizeText));
}

// The words that build a sentence around borrowed nouns: verbs of wanting and needing,
// possessives, articles, prepositions (normalised; none shared by two languages).
const FRAME = new Map<string, Language>(
  ([
    ["rw", [
      "ndashaka",
      "nshaka",
      "nkeneye",
      "ndakeneye",
      "mfite",
      "mufite",
      "ya",
      "yanjye",
      "wanjye",
      "byanjye",
      "rwanjye",
      "rya",
      "cya",
      "kuri",
      "ngo",
      "na",
      "ni",
      "mu",
      "ku",
      "iki",
      "ese",
      "none",
      // Asking the business what it does ("mukora delivery?", "murakora delivery ku Kicukiro?").
      "mukora",
      "murakora",
      "irahari",
    ]],
    ["fr", [
      "je",
      "veux",
      "voudrais",
      "besoin",
      "le",
      "la",
      "les",
      "un",
      "une",
      "des",
      "du",
      "pour",
      "avec",
      "mon",
      "ma",
      "mes",
      "est",
      "ai",
    ]],
    ["en", ["i", "want", "need", "the", "my", "for", "with", "is", "have", "can"]],
  ] as Array<[Language, string[]]>).flatMap(([language, words]) =>
    words.map((word): [string, Language] => [normalizeText(word), language])
  ),
);

// What makes English words a sentence rather than a list of names: pronouns, auxiliaries, the
// verbs of asking and changing, prepositions, determiners, question words and negation. A
// shopping list ("sugar rice cooking oil soap", "Inyange milk, Azam bread") has none of them;
// "and", "of" and "a" join the names of a list as well as a sentence's, so they are not here.
const EN_SENTENCE = normalizedSet([
  "i",
  "me",
  "my",
  "mine",
  "you",
  "your",
  "we",
  "us",
  "our",
  "he",
  "she",
  "his",
  "her",
  "it",
  "its",
  "they",
  "them",
  "their",
  "is",
  "are",
  "was",
  "were",
  "am",
  "be",
  "been",
  "do",
  "does",
  "did",
  "don",
  "doesn",
  "didn",
  "not",
  "have",
  "has",
  "had",
  "can",
  "could",
  "would",
  "will",
  "shall",
  "should",
  "must",
  "may",
  "want",
  "need",
  "like",
  "get",
  "give",
  "send",
  "bring",
  "deliver",
  "change",
  "cancel",
  "add",
  "remove",
  "pay",
  "come",
  "go",
  "know",
  "tell",
  "help",
  "show",
  "take",
  "the",
  "this",
  "that",
  "these",
  "those",
  "some",
  "any",
  "to",
  "for",
  "with",
  "in",
  "on",
  "at",
  "from",
  "by",
  "about",
  "what",
  "where",
  "when",
  "how",
  "why",
  "who",
  "which",
]);

/** A message this short is read by the words it knows, never by the letters of a name. */
export const SHORT_MESSAGE_WORDS = 3;

// Words and short character n-grams carry a language (" nd", "ou ", "the");
// word pairs, stems and longer n-grams carry the topic, and would only
// make the detector slower to train.
function languageFeature(feature: string): boolean {
  return feature.startsWith("w:") || feature.length === 3;
}

/** Options for {@linkcode trainLanguageDetector}. */
export interface LanguageDetectorOptions extends Pick<TrainOptions, "featureCache"> {
  /**
   * Names that carry no language (the packs' places and brands): a message
   * made only of them, numbers and menu words is `null`, and they are taken
   * out before the rest is read. @default []
   */
  neutralNames?: readonly string[];
}

/**
 * Trains the detector from the packs' phrases, each labelled with the
 * language it is filed under.
 *
 * A message is read without its neutral names, numbers and menu words. What
 * is left, when short (at most {@linkcode SHORT_MESSAGE_WORDS} words), counts
 * only by the words known to belong to one language (a courtesy, "yes",
 * "oui", "yego", or a word only one language's phrases use): an unknown word
 * is likelier a name than a language. Longer messages go to the n-gram model.
 */
export function trainLanguageDetector(
  examples: readonly IntentExamples[],
  options: LanguageDetectorOptions = {},
): LanguageDetector {
  const samples = examples.flatMap(({ phrases }) =>
    (Object.entries(phrases) as Array<[Language, readonly string[]]>).flatMap((
      [language, list],
    ) => list.map((text) => ({ text, label: language })))
  );
  const model = trainTextClassifier(samples, {
    featureCache: options.featureCache,
    featureFilter: languageFeature,
  });
  // Longest first, so "kimironko market" goes before "kimironko" can leave "market".
  const names = [...new Set((options.neutralNames ?? []).map(normalizeText))]
    .filter((name) => name !== "")
    .sort((a, b) => b.length - a.length);
  const withoutNames = (normalized: string) =>
    names.reduce((text, name) => text.replaceAll(` ${name} `, " "), ` ${normalized} `);
  // SMS spellings are read as the words they stand for ("nshk" is "nshaka"), as the router reads
  // them: a shorthand is no evidence of English.
  const languageWords = (text: string) =>
    wordsOf(withoutNames(expandShorthands(normalizeText(text))).trim().replace(/\s+/g, " "))
      .filter((word) => !NEUTRAL.has(word) && word.length >= 2);
  const lexicon = wordLexicon(samples, languageWords);
  const owners = wordOwners(samples, languageWords);
  // The words as written, shorthands kept ("resto", "stp"), without names.
  const writtenWords = (text: string) =>
    wordsOf(withoutNames(normalizeText(text)).trim().replace(/\s+/g, " "));
  return {
    detect(text: string, options: { conversation?: Language | null } = {}): Language | null {
      const words = languageWords(text);
      if (words.length === 0) return null;
      // Mid-conversation, a proper name typed as an answer ("Groupe Scolaire Remera", "Hôtel des
      // Mille Collines") says where or who, not which language; nor does a short courtesy, a
      // yes/no or haste ("quickly please", "oui merci", "vuba"): the person keeps the
      // conversation's language until they ask for another or write in it.
      if (options.conversation && (isProperName(text) || onlyCourtesies(writtenWords(text)))) {
        return null;
      }
      const { agent, confidence } = model.classify(words.join(" "));
      const read = agent !== null && confidence >= LANGUAGE_CONFIDENCE_THRESHOLD
        ? agent as Language
        : null;
      if (words.length > SHORT_MESSAGE_WORDS) {
        // Mid-conversation, a list of product or brand names the letters read as English
        // ("sugar rice cooking oil soap") is borrowed nouns in a rw or fr chat: an English
        // sentence has its frame ("I", "the", "can", "to") or a courtesy.
        const borrowedList = read === "en" && !!options.conversation &&
          options.conversation !== "en" &&
          !words.some((word) => EN_SENTENCE.has(word) || MARKERS.get(word) === "en");
        if (borrowedList) return null;
        // The letters unsure ("nshaka moto kuva … kugera …"): the words only one language's
        // phrases use, or the sentence's frame, still say it.
        return read ?? byKnownWords(words, lexicon) ?? byKnownWords(words, FRAME);
      }
      // A courtesy or yes/no decides; a word only one language's phrases use must also be
      // what the letters say ("paracetamol" appears in Kinyarwanda phrases but is no word of it).
      const marked = byKnownWords(words, MARKERS);
      if (marked !== null) return marked;
      // A verb of moving or cancelling inflected as one language inflects it ("reporter",
      // "annulez", "mwayimura") is that language's, though no phrase says it.
      // English verbs are borrowed in rw and fr chats ("cancel") as its nouns are (below).
      const verb = byKnownWords(words, CHANGE_VERB_LANGUAGES);
      const borrowedVerb = verb === "en" && !!options.conversation && options.conversation !== "en";
      if (verb !== null && !borrowedVerb) return verb;
      const known = byKnownWords(words, lexicon);
      // English nouns are borrowed in Kinyarwanda and French chats (a shop's "sugar", "rice"):
      // mid-conversation they are no switch to English; the frame or a courtesy must say so.
      const borrowed = known === "en" && !!options.conversation && options.conversation !== "en";
      // Known words of two languages ("ndashaka insurance ya moto"): a borrowed noun is
      // no switch; the sentence's frame ("ndashaka", "ya") says the language. An English noun
      // framed in Kinyarwanda or French ("mukora delivery?") is borrowed, first message or not.
      const framed = byKnownWords(words, FRAME);
      const framedElsewhere = known === "en" && framed !== null && framed !== "en";
      if (known !== null && !borrowed && !framedElsewhere) return known === read ? known : null;
      // In a conversation, a word or two with no frame ("pharmacie") is read in its language.
      if (framed !== null || options.conversation) return framed;
      // A first message of a word or two ("pharmacie", "assurance", "resto"): a language's SMS
      // shorthand, or a word one language's phrases use far more than the others' (a loan in
      // the others), is that language's; a word all three share ("moto") says none.
      return byKnownWords(writtenWords(text), SHORTHAND_LANGUAGES) ??
        byKnownWords(words, owners);
    },
  };
}

// Words a courtesy comes with ("thank you", "merci beaucoup") and words of manner ("quickly
// please", "vite svp", "vuba cyane"): like a courtesy, they are said in passing, in any language.
const MANNER_WORDS = normalizedSet([
  "quickly",
  "quick",
  "fast",
  "faster",
  "asap",
  "now",
  "very",
  "much",
  "you",
  "so",
  "hurry",
  "beaucoup",
  "vous",
  "vite",
  "rapidement",
  "maintenant",
  "tres",
  "vuba",
  "bwangu",
  "haraka",
  "ubu",
  "nonaha",
  "cyane",
]);

// A reply of a few words made only of courtesies, yes/no and words of manner.
function onlyCourtesies(written: readonly string[]): boolean {
  const words = written.filter((word) => !NEUTRAL.has(word) && word.length >= 2);
  return words.length <= SHORT_MESSAGE_WORDS &&
    words.some((word) => MARKERS.has(word)) &&
    words.every((word) => MARKERS.has(word) || MANNER_WORDS.has(word));
}

// The small words a proper name may hold in lower case ("Hôtel des Mille Collines", "Bank of
// Kigali", "Ecole Sainte Famille de Kigali"), normalised.
const NAME_JOINERS = normalizedSet([
  "de",
  "des",
  "du",
  "la",
  "le",
  "les",
  "d",
  "l",
  "et",
  "of",
  "the",
  "and",
  "for",
  "ya",
  "wa",
  "rya",
  "cya",
  "ry",
  "y",
  "na",
]);

// Words that make capitalised words a sentence, not a name ("I Need A Moto", "Je Veux").
const NAME_BREAKERS = normalizedSet([
  "i",
  "je",
  "want",
  "need",
  "have",
  "can",
  "is",
  "are",
  "veux",
  "voudrais",
  "besoin",
  "est",
  "ai",
  "ndashaka",
  "nshaka",
  "nkeneye",
  "ndakeneye",
  "mfite",
  "mufite",
]);

/**
 * Whether `text` is written as a proper name: two or more capitalised words
 * ("Groupe Scolaire Remera"), with only the small words names hold between
 * them in lower case, and no courtesy, yes/no or verb of wanting. A name
 * carries no evidence of the writer's language.
 */
export function isProperName(text: string): boolean {
  const tokens = text.normalize("NFC").split(/[^\p{L}\p{N}'’-]+/u).filter((token) => token !== "")
    .flatMap((token) => token.split(/['’-]/)).filter((token) => /\p{L}/u.test(token));
  const capitalised = tokens.filter((token) => /^\p{Lu}/u.test(token));
  // Capitals throughout are shouting, not a name ("BANYIBYE TELEFONI").
  if (capitalised.length < 2 || !capitalised.some((token) => /\p{Ll}/u.test(token))) return false;
  return tokens.every((token) => {
    const word = normalizeText(token);
    if (MARKERS.has(word) || NAME_BREAKERS.has(word)) return false;
    return /^\p{Lu}/u.test(token) || NAME_JOINERS.has(word);
  });
}

const CHANGE_VERB_LANGUAGES: WordLanguages = { get: changeVerbLanguage };

// Shorthands of two letters ("c", "pr", "u") are too often a word of another language.
const SHORTHAND_LANGUAGES: WordLanguages = {
  get: (word) => (word.length >= 3 ? shorthandLanguage(word) : undefined),
};

// How much of a word's use, in phrases per language, one language must have to own it, and in
// how many of its phrases at least: "pharmacie" (fr 10, en 1) and "assurance" (fr 23, rw 6) are
// French; "moto" (en 10, rw 16, fr 13) is nobody's.
const OWNER_SHARE = 0.75;
const OWNER_PHRASES = 5;

// Each word one language's phrases use most (see OWNER_SHARE), with that language.
function wordOwners(
  samples: ReadonlyArray<{ text: string; label: Language }>,
  languageWords: (text: string) => string[],
): Map<string, Language | null> {
  const phrases = new Map<Language, number>();
  const uses = new Map<string, Map<Language, number>>();
  for (const { text, label } of samples) {
    phrases.set(label, (phrases.get(label) ?? 0) + 1);
    for (const word of new Set(languageWords(text))) {
      const counts = uses.get(word) ?? new Map<Language, number>();
      counts.set(label, (counts.get(label) ?? 0) + 1);
      uses.set(word, counts);
    }
  }
  const owners = new Map<string, Language | null>();
  for (const [word, counts] of uses) {
    // Each language's share of its own phrases, so a language with more phrases owns no more.
    const rates = [...counts].map(([language, count]) => ({
      language,
      count,
      rate: count / phrases.get(language)!,
    }));
    const total = rates.reduce((sum, { rate }) => sum + rate, 0);
    const top = rates.reduce((best, next) => next.rate > best.rate ? next : best);
    if (top.count >= OWNER_PHRASES && top.rate / total >= OWNER_SHARE) {
      owners.set(word, top.language);
    }
  }
  return owners;
}

// Each word that the phrases of exactly one language use, with that language.
function wordLexicon(
  samples: ReadonlyArray<{ text: string; label: Language }>,
  languageWords: (text: string) => string[],
): Map<string, Language | null> {
  const lexicon = new Map<string, Language | null>();
  for (const { text, label } of samples) {
    for (const word of languageWords(text)) {
      const known = lexicon.get(word);
      lexicon.set(word, known === undefined || known === label ? label : null);
    }
  }
  for (const [word, language] of MARKERS) lexicon.set(word, language);
  return lexicon;
}

// The one language the known words agree on; null when they name none or disagree.
// A word's language, if the table knows the word (a map, or a rule read word by word).
type WordLanguages = Pick<ReadonlyMap<string, Language | null>, "get">;

function byKnownWords(words: readonly string[], lexicon: WordLanguages): Language | null {
  const languages = new Set(
    words.flatMap((word) => {
      const language = lexicon.get(word);
      return language ? [language] : [];
    }),
  );
  return languages.size === 1 ? [...languages][0] : null;
}

const LANGUAGE_NAMES: Array<[Language, readonly string[]]> = [
  ["en", ["english", "anglais", "icyongereza", "cyongereza", "ingereza", "eng"]],
  ["fr", ["french", "francais", "franc", "igifaransa", "gifaransa", "fr"]],
  ["rw", ["kinyarwanda", "ikinyarwanda", "kinyarwada", "kinya", "rw"]],
];

const SHORT_CODES = normalizedSet(["eng", "fr", "rw", "kinya", "franc"]);

// Words that make a language name a request ("reply in", "parle-moi en").
const REQUEST_WORDS = normalizedSet([
  "reply",
  "answer",
  "speak",
  "talk",
  "write",
  "use",
  "in",
  "please",
  "pls",
  "plz",
  "switch",
  "change",
  "en",
  "parle",
  "parlez",
  "moi",
  "repondez",
  "reponds",
  "ecris",
  "ecrivez",
  "svp",
  "stp",
  "mu",
  "muri",
  "mvugishe",
  "mumvugishe",
  "nvugisha",
  "vuga",
  "mvuga",
  "ndavuga",
  "muvuge",
  "nsubize",
  "munsubize",
  "andika",
  "mwandike",
  "ndashaka",
  "nshaka",
  "i",
  "want",
  "je",
  "veux",
  "prefere",
  "langue",
  "language",
  "ururimi",
]);

// Greetings and the small words around a request ("hello, can you speak English with me?").
const FILLER_WORDS = normalizedSet([
  "hello",
  "hi",
  "hey",
  "bonjour",
  "bonsoir",
  "salut",
  "muraho",
  "mwaramutse",
  "mwiriwe",
  "sorry",
  "pardon",
  "excuse",
  "can",
  "could",
  "would",
  "you",
  "me",
  "us",
  "we",
  "to",
  "with",
  "only",
  "just",
  "now",
  "let",
  "lets",
  "ok",
  "okay",
  "yes",
  "oui",
  "yego",
  "vous",
  "tu",
  "pouvez",
  "peux",
  "nous",
  "avec",
  "parler",
  "parlons",
  "seulement",
  "maintenant",
  "ubu",
  "nyamuneka",
  "nkwinginze",
  "niba",
  "bishoboka",
  "understand",
  "comprends",
  "know",
  // Thanks around a request; "s'il vous plaît" is taken out whole (POLITE), so that "il" alone
  // stays a third person ("il parle français" asks for nothing).
  "merci",
  "thanks",
  "thank",
  "murakoze",
]);

// "s'il vous plaît" / "s'il te plaît" as normalised ("s il vous plait", "sil vous plait").
const POLITE = /\bs ?il (?:vous|te) plait\b/g;

// Words that turn naming a language into declining it ("I don't speak Kinyarwanda").
const NEGATIONS = normalizedSet([
  "not",
  "dont",
  "don",
  "t",
  "cant",
  "ne",
  "pas",
  "ntabwo",
  "sinumva",
  "sinzi",
]);

/**
 * The language a message explicitly asks replies in ("reply in French",
 * "parle-moi en anglais", "mvugishe mu Kinyarwanda", "Hello, I speak English
 * please"), or null when it asks for none. A message must be mostly the
 * request: "I bought a French book" names a language but asks for nothing,
 * and "I don't speak French" declines one (unless it names the one wanted).
 */
export function requestedLanguage(text: string): Language | null {
  const words = wordsOf(normalizeText(text).replace(POLITE, " ")).filter((word) => word !== "");
  if (words.length === 0 || words.length > 9) return null;
  const named: Array<{ language: Language; at: number }> = [];
  words.forEach((word, at) => {
    for (const [language, names] of LANGUAGE_NAMES) {
      if (!names.some((name) => normalizeText(name) === word)) continue;
      // Short codes ("fr", "rw") are too common in other words to count unless alone.
      if (SHORT_CODES.has(word) && words.length > 1) continue;
      named.push({ language, at });
    }
  });
  if (named.length === 0) return null;
  const rest = words.filter((_, at) => !named.some((name) => name.at === at));
  const negated = rest.some((word) => NEGATIONS.has(word));
  const allowed = (word: string) =>
    REQUEST_WORDS.has(word) || FILLER_WORDS.has(word) || (negated && NEGATIONS.has(word));
  if (!rest.every(allowed)) return null;
  const languages = [...new Set(named.map((name) => name.language))];
  if (negated) return languages.length === 2 ? languages[1] : null;
  return languages.length === 1 ? languages[0] : null;
}
