/**
 * SMS spellings and shorthands of the three languages ("jveux", "qqn", "nshk",
 * "mwrmtse"), written out as the words they stand for. The router's features and
 * the kernel's phrase readers (request_phrase.ts, the safety lexicon) read a
 * message through them.
 *
 * @module
 */
import type { Language } from "./language.ts";
import { wordsOf } from "./normalize_text.ts";

// SMS spellings and shorthands, read as the words they stand for so they
// share features with the phrases ("C koi le plat du jour" is "c est quoi le
// plat du jour"). Only spellings no other word of the three languages has.
// Filed by language: "resto" is French though "restaurant" is every language's.
const BY_LANGUAGE: ReadonlyArray<[Language, ReadonlyArray<[string, string]>]> = [
  ["fr", [
    // French
    ["c", "c est"],
    ["koi", "quoi"],
    ["kel", "quel"],
    ["kele", "quelle"],
    ["pr", "pour"],
    ["ds", "dans"],
    ["vs", "vous"],
    ["bcp", "beaucoup"],
    ["jve", "je veux"],
    ["jveux", "je veux"],
    ["jvx", "je veux"],
    ["cmt", "comment"],
    ["pk", "pourquoi"],
    ["pq", "pourquoi"],
    ["qqn", "quelqu un"],
    ["qq", "quelque"],
    ["tjr", "toujours"],
    ["tjrs", "toujours"],
    ["dej", "dejeuner"],
    ["resto", "restaurant"],
    ["medoc", "medicament"],
    ["medocs", "medicaments"],
    ["palu", "paludisme"],
    ["slt", "salut"],
    ["bjr", "bonjour"],
    ["bsr", "bonsoir"],
    ["cv", "ca va"],
    ["auj", "aujourd hui"],
    ["ajd", "aujourd hui"],
    ["rdv", "rendez vous"],
    ["svp", "s il vous plait"],
    ["stp", "s il te plait"],
    ["cbn", "combien"],
    ["dispo", "disponible"],
    ["mrc", "merci"],
    ["jsuis", "je suis"],
    ["chui", "je suis"],
    ["jpeux", "je peux"],
    ["jpx", "je peux"],
    ["avc", "avec"],
    ["qd", "quand"],
    ["pb", "probleme"],
    ["pblm", "probleme"],
    ["ordi", "ordinateur"],
    ["appart", "appartement"],
    ["proprio", "proprietaire"],
    ["pharma", "pharmacie"],
    // French SMS seen in first messages ("qqch pour la toux", "j ai bsoin d un taxi").
    ["qqch", "quelque chose"],
    ["qlq", "quelque"],
    ["qlqn", "quelqu un"],
    ["bsoin", "besoin"],
    ["bsn", "besoin"],
    ["kom", "comme"],
    ["komen", "comment"],
    ["koman", "comment"],
    ["cmb", "combien"],
    ["pcq", "parce que"],
    ["pck", "parce que"],
    ["jsp", "je sais pas"],
    ["dsl", "desole"],
    ["mnt", "maintenant"],
    ["mtnt", "maintenant"],
    ["vrmt", "vraiment"],
    ["jveu", "je veux"],
    ["ptit", "petit"],
    ["ptite", "petite"],
    ["tkt", "t inquiete"],
    ["ojd", "aujourd hui"],
    ["bagnole", "voiture"],
  ]],
  ["en", [
    // English
    ["u", "you"],
    ["ur", "your"],
    ["r", "are"],
    ["pls", "please"],
    ["plz", "please"],
    ["cn", "can"],
    ["gt", "get"],
    ["hv", "have"],
    ["wat", "what"],
    ["wht", "what"],
    ["whr", "where"],
    ["nd", "need"],
    ["thx", "thanks"],
    ["tmr", "tomorrow"],
    ["tmrw", "tomorrow"],
    ["im", "i m"],
    ["hw", "how"],
    ["abt", "about"],
    ["wanna", "want to"],
    ["ppl", "people"],
  ]],
  ["rw", [
    // Kinyarwanda SMS drops vowels of the words every first message opens with ("nshk moto",
    // "mwrmtse", "nkny umuti"): written out, they meet the phrases' stems ("shaka", "keneye")
    // instead of being letters no phrase has.
    ["nshk", "nshaka"],
    ["nshak", "nshaka"],
    ["ndashk", "ndashaka"],
    ["ndsh", "ndashaka"],
    ["ndshk", "ndashaka"],
    ["nkny", "nkeneye"],
    ["nkeney", "nkeneye"],
    ["nkenye", "nkeneye"],
    ["mwrmtse", "mwaramutse"],
    ["mwrmts", "mwaramutse"],
    ["mwaramtse", "mwaramutse"],
    ["mwrw", "mwiriwe"],
    ["mwrwe", "mwiriwe"],
    ["mwirwe", "mwiriwe"],
    ["mrkz", "murakoze"],
    ["mrkoze", "murakoze"],
    ["murakz", "murakoze"],
    ["amkr", "amakuru"],
    ["mfsh", "mfasha"],
    ["mumfsh", "mumfashe"],
    ["cyn", "cyane"],
  ]],
];

// Keys are looked up in the normalised text, where doubled letters are single ("qqn" reads
// "qn"), so they are stored the same way.
const single = (key: string) => key.replace(/([a-z])\1+/g, "$1");
const SHORTHANDS = new Map<string, string>(
  BY_LANGUAGE.flatMap(([, list]) => list.map(([key, full]) => [single(key), full] as const)),
);
const LANGUAGE_OF = new Map<string, Language>(
  BY_LANGUAGE.flatMap(([language, list]) => list.map(([key]) => [single(key), language] as const)),
);

/**
 * The normalised message with SMS shorthands written out ("qqn me suit" reads "quelqu un
 * me suit", "mon ptit a avale des medocs" reads "mon petit a avale des medicaments"), for
 * readers of whole phrases such as the safety lexicon.
 */
export function expandShorthands(normalized: string): string {
  const words = wordsOf(normalized);
  return words.map((word, at) => shorthandAt(words, at) ?? word).join(" ");
}

/**
 * What the normalised word at `at` stands for, if it is a shorthand. A lone "c" is "c est"
 * only when no "est" or "était" follows: "c'est" normalises to "c est", which must not read
 * "c est est".
 */
export function shorthandAt(words: readonly string[], at: number): string | undefined {
  if (words[at] === "c" && /^(?:est|etait|etaient)$/.test(words[at + 1] ?? "")) return undefined;
  return SHORTHANDS.get(words[at]);
}

/**
 * The language whose SMS shorthand the normalised word is ("resto" and "stp" are French,
 * "nshk" Kinyarwanda, "thx" English), if it is one.
 */
export function shorthandLanguage(word: string): Language | undefined {
  return LANGUAGE_OF.get(word);
}
