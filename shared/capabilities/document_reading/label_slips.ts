/**
 * Label words as OCR leaves them on dense, tiny or worn cards: `Mpdel` for
 * `Model`, `Nemes` for `Names`, `Caténorrés` for `Catégories`, `Yatarmzwe`
 * for `Yatanzwe`. The reader's labels are patterns of exact words; a word
 * within OCR's slips of exactly one label word (and of no other) is read as
 * that word before the patterns are matched, so its field keeps its label
 * and its value is found by position as any other's.
 *
 * Only words in lower case or title case are taken for slipped labels:
 * cards print their values in capitals and digits, and a value must never be
 * read as a label (`MARIE` is no `Marque`).
 *
 * @module
 */

/** Letters OCR reads for one another: a slip between two of a group costs half a letter. */
const CONFUSABLE = ["IL1|TJ!", "O0DQ", "MNH", "CG", "B8", "S5", "Z2", "UV"];

function slipCost(a: string, b: string): number {
  if (a === b) return 0;
  return CONFUSABLE.some((group) => group.includes(a) && group.includes(b)) ? 0.5 : 1;
}

/** Edit distance (upper case) where a confusable letter (I/T, M/N, C/G) costs half. */
export function slipDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, previous + slipCost(a[i - 1], b[j - 1]));
      previous = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/**
 * The words of field labels, in Kinyarwanda, French, English and Swahili,
 * upper case without accents, grouped by what they name: the distinctive word
 * of each wording, five letters or more (shorter words are one slip from too
 * many others). A word near two words of one group (`MODEL`, `MODELE`) is
 * still that group's.
 */
const LABEL_WORDS: ReadonlyArray<readonly string[]> = [
  ["NAMES", "AMAZINA", "SURNAME"],
  ["HOLDER", "OWNER", "NYIRAYO", "PROPRIETAIRE", "TITULAIRE", "MMILIKI"],
  ["PURAKE", "PLAQUE", "PLATE"],
  ["CHASSIS", "SHASI"],
  ["MARQUE", "IKIRANGO", "MANUFACTURER"],
  ["MODEL", "MODELE", "UBWOKO"],
  ["UMWAKA", "ANNEE"],
  ["USAGE", "UTILISATION", "IMIKORESHEREZE", "PURPOSE", "MATUMIZI"],
  ["YATANZWE", "YATANGIWEHO", "DELIVRANCE", "ISSUED"],
  ["EXPIRY", "EXPIRES", "VALABLE", "IZARANGIRA"],
  ["NAISSANCE", "AMAVUKO", "BIRTH"],
  ["INDANGAMUNTU"],
  ["IGITSINA", "GENDER"],
  ["CATEGORIES", "CATEGORY", "IBYICIRO"],
];

/**
 * Words cards print that are a slip or two from a label word without being one: `Place of
 * issue` is no plate, `Year of manufacture` no make, `Issue date` is already an issue label.
 */
const OTHER_WORDS = [
  "PLACE",
  "PLACES",
  "ISSUE",
  "ISSUES",
  "ISSUING",
  "MANUFACTURE",
  "EXPIRE",
  "EXPIRED",
  "OWNERS",
  "NAMED",
  "MODELS",
  "PLATES",
  "GENRE",
];

/** Accents off, upper case, the punctuation around a word kept apart. */
function parts(text: string): { before: string; core: string; after: string } | null {
  const match = /^([^\p{L}]*)(\p{L}[\p{L}\p{M}]*)([^\p{L}]*)$/u.exec(text);
  if (!match) return null;
  return { before: match[1], core: match[2], after: match[3] };
}

const plain = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase();

/** How far a word of `length` letters may be from a label word: a slip in five, two in ten. */
function allowed(length: number): number {
  return length >= 10 ? 2 : length >= 7 ? 1.5 : 1;
}

/**
 * A word as a label is matched: the label word it is within OCR's slips of
 * (one letter in a short word, two in a long one, a confusable pair or an
 * `rn` read for an `m` costing less), when it is near exactly one and is not
 * in capitals; otherwise the word as printed. Parts joined by a slash are
 * looked at one by one. A word cut short by a dot (`Yatang.`, `Nylr.`) is the
 * label word it starts (a confusable letter off), when it starts the words of one field only.
 */
export function asLabelWord(text: string): string {
  // Wordings OCR joined at their slash (`Type/Mpdel`) are looked at one by one.
  return text.split(/([\/|])/).map(asOneWord).join("");
}

function asOneWord(text: string): string {
  const found = parts(text);
  if (!found || !/\p{Ll}/u.test(found.core)) return text;
  const word = plain(found.core);
  // A label cut short where its cell ends (`Yatang.`, `Nyirik.`): the one label it starts.
  if (found.after.startsWith(".") && word.length >= 4) {
    // (A confusable letter may slip in it too: `Nylr.`.)
    const starts = (label: string) => slipDistance(word, label.slice(0, word.length)) <= 0.5;
    const groups = LABEL_WORDS.filter((group) => group.some(starts));
    const label = groups[0]?.find(starts);
    if (groups.length === 1 && label && label !== word) {
      return found.before + label.toLowerCase() + found.after;
    }
  }
  if (found.core.length < 5) return text;
  // (A word that holds a label word whole is matched by the labels as printed:
  // `Kizarangira`, `yindangamuntu`.)
  if (
    OTHER_WORDS.includes(word) ||
    LABEL_WORDS.some((group) => group.some((label) => word.includes(label)))
  ) return text;
  const readings = [word, word.replace(/RN/g, "M")];
  let best: { label: string; group: number; distance: number } | null = null;
  let tie = false;
  for (const [group, labels] of LABEL_WORDS.entries()) {
    for (const label of labels) {
      if (Math.abs(label.length - word.length) > 2) continue;
      const distance = Math.min(...readings.map((reading) => slipDistance(reading, label)));
      if (!best || distance < best.distance) {
        best = { label, group, distance };
        tie = false;
      } else if (distance === best.distance && group !== best.group) tie = true;
    }
  }
  if (!best || tie || best.distance > allowed(best.label.length)) return text;
  return found.before + best.label.toLowerCase() + found.after;
}
