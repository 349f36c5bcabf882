/**
 * What a client's own words say their case is about ("my employer has not paid my salary": work;
 * « mon bailleur veut m'expulser »: renting; "umuvandimwe yanyambuye isambu": land), and whether
 * those words already tell the case, so the intake asks neither again.
 *
 * Read over {@linkcode normalizeText}'s form (no accents, doubled letters folded, numbers as
 * `num`), in en, rw and fr.
 *
 * @module
 */
import { normalizeText, wordsOf } from "@shared/contract/normalize_text.ts";
import type { CaseCategory } from "./case_intake.ts";

// Word stems per category, first match wins: work and renting come before contract (a work
// contract is a work case, a lease a renting one), debt before business.
const MATTERS: ReadonlyArray<readonly [CaseCategory, RegExp]> = [
  [
    "labour",
    /\b(?:employers?|employe[sd]?|salary|salaries|wages?|unpaid pay|fired|dismis\w*|sacked|laid off|my boss|employeur\w*|salaires?|licenci\w*|renvoye\w*|mon patron|umukoresha\w*|abakoresha|umushahara|imishahara|yanyirukanye|banyirukanye|kwirukanwa)\b/,
  ],
  [
    "tenancy",
    /\b(?:landlord\w*|tenants?|tenancy|evict\w*|my rent|the rent|lease|bailleur\w*|baileur\w*|locataire\w*|loyer\w*|expuls\w*|bail|(?:mon|notre|ma|le|la) proprio\w*|(?:mon|notre) proprietaire|proprietaire (?:de|du) (?:la maison|l apartement|mon apartement|mon logement|la chambre|mon studio)|nyir inzu|nyiri inzu|ubukode|gukodesha|ukodesha|ndakodesha|kunsohora mu nzu|ansohora mu nzu|yansohoye mu nzu)\b/,
  ],
  [
    "land",
    /\b(?:land|plot|parcel\w*|land title|terain\w*|parcele\w*|foncier\w*|ubutaka|isambu|ikibanza|ibibanza|umurima)\b/,
  ],
  [
    "family",
    /\b(?:divorc\w*|custody|child support|inherit\w*|my husband|my wife|marriage|garde des enfants|pension alimentaire|heritage|sucesion|mon mari|ma femme|mariage|gutandukana|ubutane|izungura|umunani|umugabo wanjye|umugore wanjye)\b/,
  ],
  [
    "debt",
    /\b(?:owes? me|debts?|loan|lent|borrowed|repay|me doit|dete|dettes?|pret|prete|rembours\w*|umwenda|ideni|amadeni|yanze kunyishyura|ntiyanyishyura|yarangurije)\b/,
  ],
  [
    "criminal",
    /\b(?:arested|police|jail|prison|custody of police|charged with|accused|plainte|garde a vue|gendarmerie|polisi|gereza|yafunzwe|bafunze|yatawe muri yombi|ubugizi bwa nabi)\b/,
  ],
  ["notary", /\b(?:notar\w*|notaire|noteri|certif\w* copy|legalis\w*|kwemeza inyandiko)\b/],
  [
    "business",
    /\b(?:my company|my business|register a company|partner\w* in business|shareholder\w*|mon entreprise|ma societe|societe|associe\w*|sosiyete|ikigo cyanjye|ubucuruzi bwanjye)\b/,
  ],
  ["contract", /\b(?:contract\w*|agrement|contrat\w*|amasezerano)\b/],
];

// Words that only ask for legal help, not what happened: "I need a lawyer" tells no case.
const ASKING =
  /^(?:i|me|my|a|an|the|need|want|would|like|please|help|lawyer|legal|advice|case|for|with|about|je|j|ai|besoin|d|un|une|avocat|avoka|de|veux|voudrais|aide|juridique|conseil|pour|svp|ndashaka|nkeneye|umunyamategeko|ubufasha|bw|amategeko|mu|by|nifuza|mwamfasha|hello|hi|bonjour|muraho|num|and|et|na)$/;

/** The kind of case the client's words name, or null when they name none. */
export function caseMatterOf(text: string): CaseCategory | null {
  const normalized = ` ${normalizeText(text)} `;
  return MATTERS.find(([, pattern]) => pattern.test(normalized))?.[0] ?? null;
}

// A figure or a time told in words: an amount, a count, since when ("amezi atatu", "depuis juin").
const FIGURE =
  /^(?:num|two|three|four|five|six|seven|eight|nine|ten|twelve|months?|years?|weeks?|since|deux|trois|quatre|cinq|sept|huit|neuf|dix|douze|mois|ans|annees|semaines|depuis|abiri|atatu|ane|atanu|atandatu|kabiri|gatatu|kane|gatanu|amezi|imyaka|ibyumweru|kuva|umwaka|ukwezi)$/;

/**
 * Whether the words tell what happened (an account a lawyer can read), beyond asking for legal
 * help: besides the request for a lawyer, five words with a figure (an amount, a time: "for 3
 * months", "amezi atatu") or eight without. "Someone owes me money, I need a lawyer" only names the matter.
 */
export function tellsCase(text: string): boolean {
  const words = wordsOf(normalizeText(text));
  const told = words.filter((word) => !ASKING.test(word)).length;
  return told >= 8 || (told >= 5 && words.some((word) => FIGURE.test(word)));
}
