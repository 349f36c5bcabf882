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
// `ends` are the stems that end the thing rather than move it ("cancel", "annuler", "guhagarika").
const STEMS: Readonly<
  Record<Language, { moves: string; ends: string; endings: string; prefix?: string }>
> = {
  en: { moves: "move|reschedule|postpone|rebook", ends: "cancel|canceled|cancelled", endings: "" },
  fr: { moves: "report|deplac|decal|reprogram", ends: "anul", endings: "er|e|ez|es" },
  rw: { moves: "imur|subik", ends: "hagarik", endings: "a|e|ye|ire", prefix: "[a-z]{0,6}" },
};

const LANGUAGES = Object.keys(STEMS) as Language[];

function pattern(
  language: Language,
  { inflected, endsOnly = false }: { inflected: boolean; endsOnly?: boolean },
): string {
  const { moves, ends, endings, prefix = "" } = STEMS[language];
  const stems = endsOnly ? ends : `${moves}|${ends}`;
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

/** Whether a normalised change verb ends the thing rather than moves it ("cancel", "annulez", "guhagarika"). */
export const CANCEL_VERB: RegExp = new RegExp(
  `^(?:${
    LANGUAGES.map((language) => pattern(language, { inflected: false, endsOnly: true })).join("|")
  })$`,
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
