/**
 * Verbs that move or end something already arranged ("reschedule", "reporter", "annulez",
 * "kwimura", "mwayisubika", "guhagarika"), per language, over words as normalizeText writes
 * them (accents gone, doubled letters folded). One table serves the router, which reads a
 * message of such a verb as asking after open work, and the language detector, for which a
 * message of one such word is evidence of its language.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

// Each language's stems and the endings its inflected forms take. A Kinyarwanda verb's subject,
// tense and object prefixes come before its stem ("mw-a-yi-mur-a", "gu-hagarik-a").
const STEMS: Readonly<Record<Language, { stems: string; endings: string; prefix?: string }>> = {
  en: { stems: "move|reschedule|cancel|canceled|cancelled|postpone|rebook", endings: "" },
  fr: { stems: "anul|report|deplac|decal|reprogram", endings: "er|e|ez|es" },
  rw: { stems: "imur|hagarik|subik", endings: "a|e|ye|ire", prefix: "[a-z]{0,6}" },
};

const LANGUAGES = Object.keys(STEMS) as Language[];

function pattern(language: Language, { inflected }: { inflected: boolean }): string {
  const { stems, endings, prefix = "" } = STEMS[language];
  const ending = endings === "" ? "" : `(?:${endings})${inflected ? "" : "?"}`;
  return `${prefix}(?:${stems})${ending}`;
}

/**
 * Whether a normalised word is such a verb in any language, bare stems included ("annul",
 * "report", "imur"), as the router reads a request to move or cancel.
 */
export const CHANGE_VERB: RegExp = new RegExp(
  `^(?:${LANGUAGES.map((language) => pattern(language, { inflected: false })).join("|")})$`,
);

// Inflected forms only: a bare stem can be another language's word ("report" is English).
const INFLECTED = LANGUAGES.map((language) => ({
  language,
  form: new RegExp(`^${pattern(language, { inflected: true })}$`),
}));

/**
 * The language whose inflected form of a change verb this normalised word is ("reporter" and
 * "annulez": fr; "mwayimura", "guhagarika": rw; "cancel": en), or undefined when it is none or
 * the forms of two languages.
 */
export function changeVerbLanguage(word: string): Language | undefined {
  const owners = INFLECTED.filter(({ form }) => form.test(word));
  return owners.length === 1 ? owners[0].language : undefined;
}
