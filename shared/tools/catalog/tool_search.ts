/**
 * Finds tools by what a need says, offline: BM25 over each tool's name,
 * title, summary, description, category and parameter words, plus its
 * service's words (the service's summary and its agents' example requests
 * in en/rw/fr), which is how a Kinyarwanda or French need reaches a tool
 * described in English. Every word counts by all its forms: itself, its
 * English and French Snowball stems and its Kinyarwanda stem and root (the
 * router's own normalisation), so "payments", "paiement" and "kwishyura"
 * each meet the documents that use another form of the word.
 *
 * @module
 */
import { stemmer } from "stemmer";
import {
  kinyarwandaRoot,
  kinyarwandaStem,
  normalizeText,
  wordsOf,
} from "@shared/agent/text_features.ts";

/** One tool as search sees it. */
export interface SearchDocument {
  /** The tool's name. */
  name: string;
  /** Its texts, each with a weight (a name counts more than a parameter's description). */
  fields: ReadonlyArray<{ text: string; weight: number }>;
  /** Its service, whose words ({@link ToolSearchOptions.groups}) count for all its tools. */
  group?: string;
}

/** One hit. */
export interface SearchHit {
  /** The tool's name. */
  name: string;
  /** Its BM25 score (higher is better; only the order means anything). */
  score: number;
}

/** Options for {@link createToolSearch}. */
export interface ToolSearchOptions {
  /** BM25's term-frequency saturation. @default 1.2 */
  k1?: number;
  /** BM25's length normalisation. @default 0.75 */
  b?: number;
  /**
   * Each service's words (its agents' example requests). Ranked as documents
   * of their own, apart from the tools' texts, so that a service's many words
   * bring its tools up together without drowning what tells them apart.
   */
  groups?: Readonly<Record<string, string>>;
  /** How much a service's score counts next to a tool's own. @default 1 */
  groupWeight?: number;
}

// English: Porter's stemmer. French: a light suffix stripper after Savoy's (as Lucene's
// FrenchLightStemmer), on words already without accents. Snowball's French would be better,
// but its package carries every language (0.8 MiB) into every function's bundle.
const EN = { stem: (word: string) => stemmer(word) };
const FR = { stem: frenchStem };

// Longest first; a stem keeps at least three letters.
const FR_SUFFIXES = [
  "issements",
  "issement",
  "atrices",
  "atrice",
  "ateurs",
  "ateur",
  "ations",
  "ation",
  "ements",
  "ement",
  "ments",
  "ment",
  "ances",
  "ance",
  "ences",
  "ence",
  "ables",
  "able",
  "iques",
  "ique",
  "istes",
  "iste",
  "ismes",
  "isme",
  "euses",
  "euse",
  "eux",
  "ites",
  "ite",
  "ives",
  "ive",
  "ifs",
  "if",
  "ees",
  "ee",
  "er",
  "ez",
  "es",
  "e",
  "s",
];

/** A French word's light stem: plural and common derivational endings removed. */
function frenchStem(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith("aux")) stem = `${stem.slice(0, -3)}al`;
  else if (stem.length > 3 && stem.endsWith("x")) stem = stem.slice(0, -1);
  for (const suffix of FR_SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 3) {
      return stem.slice(0, -suffix.length);
    }
  }
  return stem;
}

// Words that carry no need in any of our languages (BM25's idf would still let them add noise
// across a small catalog).
// Kept normalised, as the words they are compared with ("all" is "al").
const STOP = new Set(
  wordsOf(normalizeText(
    "a an the to of for and or in on at by with my me i you your is are be it this that from " +
      "as can want need please some all " +
      "le la les un une des de du et ou au aux en pour avec mon ma mes je veux est sur " +
      "na ya yo za kwa mu ku ni cyangwa",
  )),
);

// The platform's words across en/rw/fr: each group is one concept, so a need in one language
// meets a tool described in another ("louer" and "gukodesha" meet "rent"). Normalised forms
// (no accents), matched on the word or any of its stems.
const CONCEPTS: Record<string, readonly string[]> = {
  pay: ["pay", "paid", "payment", "payer", "paiement", "kwishyura", "ishyura", "kwishyu", "momo"],
  rent: ["rent", "rental", "louer", "location", "gukodesha", "kodesha", "ubukode"],
  house: ["house", "home", "apartment", "flat", "maison", "appartement", "logement", "inzu"],
  audience: [
    "customers",
    "customer",
    "clients",
    "client",
    "people",
    "everyone",
    "abakiriya",
    "abantu",
    "audience",
    "segment",
    "opted",
  ],
  message: ["message", "messages", "broadcast", "campaign", "annonce", "ubutumwa", "diffusion"],
  ride: ["ride", "moto", "taxi", "trip", "course", "driver", "chauffeur", "urugendo", "lift"],
  table: ["table", "reservation", "booking", "reserver", "ameza", "dinner", "diner"],
  insurance: ["insurance", "assurance", "ubwishingizi", "cover", "policy"],
  car: ["car", "vehicle", "voiture", "imodoka", "motor"],
  price: ["price", "quote", "cost", "prix", "tarif", "igiciro", "estimate", "fare"],
  person: ["person", "human", "staff", "agent", "humain", "personne", "umuntu", "umukozi"],
  video: ["video", "film", "clip", "amashusho", "ad", "advert", "pub", "publicite"],
  document: ["document", "photo", "scan", "picture", "ifoto", "papier", "carte", "card"],
  shop: ["shop", "vendor", "seller", "store", "boutique", "vendeur", "iduka", "umucuruzi"],
  cancel: ["cancel", "stop", "annuler", "arreter", "hagarika", "kureka", "withdraw"],
  status: ["status", "state", "gone", "through", "statut", "etat", "byagenze"],
  medicine: ["medicine", "pharmacy", "drug", "pharmacie", "medicament", "umuti", "imiti"],
  lawyer: ["legal", "lawyer", "case", "avocat", "juridique", "umunyamategeko", "urubanza"],
};
const CONCEPT_OF = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPTS)) {
  for (const word of words) {
    // Every form the word may reach a text in: normalised, and its en and fr stems.
    for (const form of wordsOf(normalizeText(word))) {
      for (const variant of [form, EN.stem(form), FR.stem(form)]) {
        CONCEPT_OF.set(variant, `~${concept}`);
      }
    }
  }
}

/**
 * The search terms of a text: each word's forms, without stop words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchTerms } from "./tool_search.ts";
 * assert.ok(searchTerms("Paiements").includes(searchTerms("payments").find((t) => t === "pai") ?? "pai"));
 * ```
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  // snake_case and dotted names count as their words.
  for (const word of wordsOf(normalizeText(text.replace(/[_.]/g, " ")))) {
    terms.push(...formsOf(word));
  }
  return terms;
}

// A word's forms, kept: the services' example requests repeat their words many times, and
// stemming each occurrence afresh made the first search of a catalog take seconds.
const FORMS = new Map<string, readonly string[]>();
const FORMS_MAX = 50_000;

function formsOf(word: string): readonly string[] {
  const known = FORMS.get(word);
  if (known) return known;
  let result: string[] = [];
  if (word.length >= 2 && !STOP.has(word) && word !== "num" && word !== "phone") {
    const forms = new Set([word, EN.stem(word), FR.stem(word)]);
    const stem = kinyarwandaStem(word);
    if (stem) forms.add(stem);
    const root = kinyarwandaRoot(word);
    if (root && root.length >= 3) forms.add(root);
    for (const form of [...forms]) {
      const concept = CONCEPT_OF.get(form);
      if (concept) forms.add(concept);
    }
    result = [...forms].filter((form) => form.length >= 2);
  }
  if (FORMS.size < FORMS_MAX) FORMS.set(word, result);
  return result;
}

/** A search index over documents; see the module documentation. */
export interface ToolSearch {
  /**
   * The documents best matching `query`, best first; none when no word of
   * the query occurs in any document.
   */
  search(query: string, limit: number): SearchHit[];
}

/**
 * Builds the index.
 *
 * @param documents The tools.
 * @param options BM25's parameters.
 * @returns The index.
 */
export function createToolSearch(
  documents: readonly SearchDocument[],
  options: ToolSearchOptions = {},
): ToolSearch {
  const tools = bm25(documents, options);
  const groups = bm25(
    Object.entries(options.groups ?? {}).map(([name, text]) => ({
      name,
      fields: [{ text, weight: 1 }],
    })),
    options,
  );
  const groupWeight = options.groupWeight ?? 1;
  return {
    search(query, limit) {
      const terms = [...new Set(searchTerms(query))];
      const groupScores = new Map(groups.map((group) => [group.name, group.score(terms)]));
      const hits: SearchHit[] = [];
      for (const [index, tool] of tools.entries()) {
        const own = tool.score(terms);
        const group = documents[index].group;
        const score = own + (group ? groupWeight * (groupScores.get(group) ?? 0) : 0);
        if (score > 0) hits.push({ name: tool.name, score: Math.round(score * 1000) / 1000 });
      }
      return hits.sort((x, y) => y.score - x.score || x.name.localeCompare(y.name))
        .slice(0, limit);
    },
  };
}

/** BM25 over weighted fields: each document with its scoring function. */
function bm25(
  documents: readonly SearchDocument[],
  options: ToolSearchOptions,
): Array<{ name: string; score(terms: readonly string[]): number }> {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const indexed = documents.map((document) => {
    const tf = new Map<string, number>();
    let length = 0;
    for (const field of document.fields) {
      for (const term of searchTerms(field.text)) {
        tf.set(term, (tf.get(term) ?? 0) + field.weight);
        length += field.weight;
      }
    }
    return { name: document.name, tf, length };
  });
  const df = new Map<string, number>();
  for (const document of indexed) {
    for (const term of document.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = indexed.length;
  const average = indexed.reduce((sum, document) => sum + document.length, 0) / Math.max(n, 1);
  const idf = (term: string) => {
    const count = df.get(term) ?? 0;
    return Math.log(1 + (n - count + 0.5) / (count + 0.5));
  };
  return indexed.map((document) => ({
    name: document.name,
    score(terms) {
      let score = 0;
      for (const term of terms) {
        const f = document.tf.get(term);
        if (!f) continue;
        score += idf(term) * (f * (k1 + 1)) /
          (f + k1 * (1 - b + b * document.length / (average || 1)));
      }
      return score;
    },
  }));
}
