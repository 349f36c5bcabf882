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

/**
 * A table of phrases, each in every language. `{name}` marks a value;
 * `{name|one|other}` says the singular or the plural form by the number in
 * `name`, with `#` standing for the number: `{n|# driver|# drivers}`,
 * `{n|umushoferi # ukwegereye|abashoferi # bakwegereye}`.
 */
export type Phrases = Record<string, Record<Language, string>>;

// French counts 0 and 1 as singular, English only 1; Kinyarwanda's noun classes change
// with the count the way English does (umushoferi 1, abashoferi 0 / 2).
const PLURALS: Record<Language, Intl.PluralRules | null> = {
  en: new Intl.PluralRules("en"),
  fr: new Intl.PluralRules("fr"),
  rw: null,
};

function pluralForm(language: Language, count: number): "one" | "other" {
  const rule = PLURALS[language]?.select(count) ?? (count === 1 ? "one" : "other");
  return rule === "one" ? "one" : "other";
}

/** A function that says a phrase of `table` in a language, with values filled in. */
export function phraseBook<T extends Phrases>(
  table: T,
): (key: keyof T, language: Language, values?: Record<string, string | number>) => string {
  // One pass with a function: a value (a user's words on a staff ticket) is never read as a
  // replacement pattern ("$&", "$'") nor as a template ("{agent}") for a later value.
  return (key, language, values = {}) =>
    table[key][language].replace(
      /\{(\w+)(?:\|([^{}|]*)\|([^{}|]*))?\}/g,
      (slot, name: string, one?: string, other?: string) => {
        if (!Object.hasOwn(values, name)) return slot;
        const value = values[name];
        if (one === undefined || other === undefined) return String(value);
        const form = pluralForm(language, Number(value)) === "one" ? one : other;
        return form.replaceAll("#", String(value));
      },
    );
}
