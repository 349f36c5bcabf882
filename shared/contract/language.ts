/**
 * The languages EasyMO speaks (English, Kinyarwanda, French), how a message
 * reveals which one the user writes in, and phrase tables. One place, so the
 * buy & sell flow and the agents never disagree about a user's language.
 *
 * @module
 */

/** A language the platform speaks. */
export type Language = "en" | "rw" | "fr";

/** The languages, for schemas. */
export const LANGUAGES = ["en", "rw", "fr"] as const;

const MARKERS: Array<[Language, RegExp]> = [
  [
    "rw",
    /\b(muraho|ndashaka|nshaka|amakuru|mwaramutse|mwiriwe|murakoze|yego|reka|ese|mufite|umuntu|imiti|ifunguro)\b/i,
  ],
  [
    "fr",
    /\b(bonjour|je|cherche|voudrais|besoin|salut|merci|avez|oui|annuler|personne|médicament|manger|stp|svp)\b/i,
  ],
  ["en", /\b(hi|hello|i need|i want|looking for|please|pharmacy|person)\b/i],
];

/** A language from a stored locale ("rw", "fr"; anything else, or none, is English). */
export function languageFromLocale(locale: string | null | undefined): Language {
  return locale === "rw" || locale === "fr" ? locale : "en";
}

/** The language a message is written in, else `fallback`. */
export function languageOf(text: string, fallback: Language): Language {
  for (const [language, marker] of MARKERS) if (marker.test(text)) return language;
  return fallback;
}

const YES = /^(yes|yeah|yep|sure|ok yes|oui|ouais|d'accord|yego|ego|ni byo)[\s!.,]*$/i;
const NO = /^(no|nope|non|oya)[\s!.,]*$/i;

/**
 * A typed answer to a yes/no question, in any of our languages: true for
 * "Yes", "oui", "yego"; false for "no", "non", "oya"; null for anything else.
 */
export function typedAnswer(text: string): boolean | null {
  const trimmed = text.trim();
  return YES.test(trimmed) ? true : NO.test(trimmed) ? false : null;
}

const PERSON =
  /\b(person|human|someone|staff|agent|talk to|umuntu|umukozi|ubufasha|personne|quelqu'un|conseiller)\b/i;

/** Whether the user asks for a person, in any of our languages. */
export function asksForPerson(text: string): boolean {
  return PERSON.test(text);
}

/** A table of phrases, each in every language; `{name}` marks a value. */
export type Phrases = Record<string, Record<Language, string>>;

/** A function that says a phrase of `table` in a language, with values filled in. */
export function phraseBook<T extends Phrases>(
  table: T,
): (key: keyof T, language: Language, values?: Record<string, string | number>) => string {
  // One pass with a function: a value (a user's words on a staff ticket) is never read as a
  // replacement pattern ("$&", "$'") nor as a template ("{agent}") for a later value.
  return (key, language, values = {}) =>
    table[key][language].replace(
      /\{(\w+)\}/g,
      (slot, name: string) => Object.hasOwn(values, name) ? String(values[name]) : slot,
    );
}
