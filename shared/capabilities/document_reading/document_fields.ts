/**
 * Rwandan document fields and how each is checked: number plates, chassis
 * numbers (VIN, ISO 3779), 16-digit national IDs, plausible years and dates,
 * names. Each reader takes what OCR saw (which confuses O/0, I/1, S/5, B/8…)
 * and answers the normalised value with whether it passed its check, so a
 * field is only as confident as its check allows.
 *
 * @module
 */

/** A field value read from OCR text, normalised, with its check. */
export interface CheckedValue {
  /** The normalised value, e.g. `RAB 123 C`. */
  value: string;
  /** Whether it passed every check that applies. */
  valid: boolean;
  /** Why it is doubtful (safe to show staff), when it is. */
  note?: string;
  /**
   * It passed only once an OCR confusion was repaired (a letter read for a digit): a reading
   * of the same field that passes as printed is preferred to it.
   */
  repaired?: boolean;
}

// Characters OCR commonly reads for a digit, and for a letter.
const AS_DIGIT: Record<string, string> = {
  O: "0",
  Q: "0",
  D: "0",
  I: "1",
  L: "1",
  "|": "1",
  Z: "2",
  S: "5",
  B: "8",
  G: "6",
  T: "7",
  "©": "0",
  "&": "8",
};
const AS_LETTER: Record<string, string> = {
  "0": "O",
  "1": "I",
  "2": "Z",
  "5": "S",
  "8": "B",
  "6": "G",
  "4": "A",
  "7": "T",
};

function digitsOf(text: string): string {
  return [...text].map((ch) => AS_DIGIT[ch] ?? ch).join("");
}

function lettersOf(text: string): string {
  return [...text].map((ch) => AS_LETTER[ch] ?? ch).join("");
}

/** Rwandan car plates: `R` + two letters, three digits, one letter (`RAB 123 C`). */
export const PLATE = /^R[A-Z]{2} \d{3} [A-Z]$/;

/**
 * Every plate series the reader knows (docs/ocr.md gives each one's source),
 * most specific first. A series marked `checked: false` is one whose exact
 * shape we could not confirm: such a plate is returned as read, with a note
 * for the customer to confirm it.
 */
export const PLATE_SERIES: ReadonlyArray<
  { series: string; shape: RegExp; checked: boolean }
> = [
  // Police and Defence Force vehicles: the force's initials, three digits, a letter.
  { series: "police", shape: /^RNP \d{3} [A-Z]$/, checked: true },
  { series: "defence", shape: /^RDF \d{3} [A-Z]$/, checked: true },
  { series: "car", shape: PLATE, checked: true },
  // Motorcycles: one letter after the R (`RB 123 A`).
  { series: "motorcycle", shape: /^R[A-Z] \d{3} [A-Z]$/, checked: true },
  // Government of Rwanda: `GR 123 A`.
  { series: "government", shape: /^GR \d{3} [A-Z]$/, checked: true },
  // Diplomatic corps and international organisations (`CD`, `IT`): digits and a letter vary.
  { series: "diplomatic", shape: /^(?:CD|IT) \d{2,4}(?: [A-Z])?$/, checked: false },
];

/** Which series a normalised plate belongs to, or null. */
export function plateSeries(plate: string): (typeof PLATE_SERIES)[number] | null {
  return PLATE_SERIES.find((series) => series.shape.test(plate)) ?? null;
}

// One plate candidate from a run of characters: the letters before the digits, the digits, and
// the letter after them, with letter/digit confusions repaired by position.
function plateFrom(prefix: string, number: string, suffix: string): string {
  const letters = lettersOf(prefix);
  const digits = digitsOf(number);
  return suffix ? `${letters} ${digits} ${lettersOf(suffix)}` : `${letters} ${digits}`;
}

/**
 * Reads a number plate from OCR text (`RAB123C`, `RAB 123C`, `RA8 I23 C`,
 * `RB 123 A`, `GR 045 B`), repairing letter/digit confusions by position.
 * A plate of a known series passes; a plate-like run of another shape
 * (temporary, trailer, foreign) is answered as read but doubtful.
 */
export function readPlate(raw: string): CheckedValue | null {
  // OCR reads a plate's closing J as a bracket.
  const upper = raw.toUpperCase().replace(/[)\]](?=\s|$)/g, "J").replace(/[^A-Z0-9| ]/g, " ")
    .replace(/\s+/g, " ").trim();
  // As printed, with its spaces: the series is read from where OCR saw the gaps.
  const spaced = /(?:^|\s)([A-Z0-9|]{1,3})\s?([0-9OQDILZSBGT|]{3,4})\s?([A-Z0-9])?(?=\s|$)/g;
  const candidates: string[] = [];
  for (const match of upper.matchAll(spaced)) {
    candidates.push(plateFrom(match[1], match[2], match[3] ?? ""));
  }
  const compact = upper.replace(/[^A-Z0-9|]/g, "");
  // Unspaced (`RAB123C`): a car's seven characters, then a motorcycle's six.
  for (const [size, split] of [[7, 3], [6, 2]] as const) {
    for (let start = 0; start + size <= compact.length; start++) {
      const chunk = compact.slice(start, start + size);
      candidates.push(
        plateFrom(chunk.slice(0, split), chunk.slice(split, split + 3), chunk[size - 1]),
      );
    }
  }
  // As printed first: a plate that needed no letter/digit repair is the surer reading.
  const asPrinted = (value: string) => compact.includes(value.replace(/ /g, ""));
  const checked = candidates.filter((value) => plateSeries(value)?.checked);
  const printed = checked.find(asPrinted);
  if (printed) return { value: printed, valid: true };
  if (checked.length) return { value: checked[0], valid: true, repaired: true };
  for (const value of candidates) {
    const series = plateSeries(value);
    if (series) {
      return { value, valid: false, note: `a ${series.series} plate: check its number` };
    }
  }
  // Another series (temporary, trailer, foreign): only letters and digits as printed, no repair.
  const other = /(?:^|\s)([A-Z]{1,3}) ?(\d{3,4})(?: ?([A-Z]))?(?=\s|$)/.exec(upper);
  if (other) {
    return {
      value: [other[1], other[2], other[3]].filter(Boolean).join(" "),
      valid: false,
      note: "not a plate series we know: check it",
    };
  }
  return null;
}

const VIN_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** A VIN's 17 characters: digits and capitals without I, O and Q. */
export const VIN = /^[A-HJ-NPR-Z0-9]{17}$/;

/**
 * The ISO 3779 check digit (position 9) of a 17-character VIN: each
 * character's value times its position's weight, summed, modulo 11; 10 is `X`.
 */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const ch = vin[i];
    const value = /\d/.test(ch) ? Number(ch) : VIN_VALUES[ch];
    if (value === undefined) return "";
    sum += value * VIN_WEIGHTS[i];
  }
  const rest = sum % 11;
  return rest === 10 ? "X" : String(rest);
}

/** Whether a VIN's ninth character is its check digit. */
export function vinCheckDigitValid(vin: string): boolean {
  return VIN.test(vin) && vin[8] === vinCheckDigit(vin);
}

// What OCR reads for VIN characters that a VIN cannot hold, or that it confuses.
const VIN_SWAPS: Record<string, string[]> = {
  O: ["0"],
  Q: ["0"],
  I: ["1", "J"],
  ")": ["J"],
  "]": ["J"],
  // Tesseract reads a J's hook as a slash ("MD6/1KWY3…").
  "/": ["J", "1", "7"],
  "|": ["1"],
  "0": ["D"],
  "1": ["L", "T", "J"],
  L: ["1"],
  "5": ["S"],
  S: ["5"],
  "8": ["B"],
  B: ["8"],
  "2": ["Z"],
  Z: ["2"],
  "6": ["G"],
  G: ["6"],
  U: ["V"],
  V: ["U"],
  E: ["F"],
  F: ["E"],
};

/**
 * Reads a chassis number (VIN). When the ninth character is not the check
 * digit, tries one and then two common OCR confusions and keeps the first
 * reading that passes; a VIN that never passes is answered as read (some
 * makers outside North America do not use the check digit) but not valid.
 */
export function readVin(raw: string): CheckedValue | null {
  const cleaned = raw.toUpperCase().replace(/[\s\-.:]/g, "");
  if (cleaned.length === 18) return readVinOneTooMany(cleaned);
  const chars = [...cleaned].map((ch) => (ch === "O" || ch === "Q" ? "0" : ch === "I" ? "1" : ch));
  if (chars.length !== 17) return null;
  const base = chars.join("").replace(/[)\]\/]/g, "J").replace(/\|/g, "1");
  if (vinCheckDigitValid(base)) return { value: base, valid: true };
  const original = [...cleaned];
  const candidates = [base];
  for (let i = 0; i < 17; i++) {
    for (const swap of VIN_SWAPS[original[i]] ?? []) {
      const next = [...base];
      next[i] = swap;
      candidates.push(next.join(""));
    }
  }
  // A check digit passes by chance one time in eleven, and makers that use none pass a swap by
  // chance too: only a single passing repair is offered, and it stays doubtful.
  const passing = new Set(candidates.filter(vinCheckDigitValid));
  if (passing.size === 1) {
    return { value: [...passing][0], valid: false, note: "one character was corrected: check it" };
  }
  if (!VIN.test(base)) return null;
  return { value: base, valid: false, note: "the check digit does not match" };
}

/**
 * A VIN read with one character too many: tesseract now and then reads one glyph twice (`G6`
 * for a `6`, `I1` for a `1`, boxes overlapping). Each reading without one character is tried, as
 * printed (an `I` left in is no VIN's: the I is what was read twice); only when exactly one of
 * them passes the check digit is it offered, doubtful. A maker without a check digit, or two
 * readings that pass, leave nothing: eighteen characters are no VIN.
 */
function readVinOneTooMany(cleaned: string): CheckedValue | null {
  const passing = new Set<string>();
  for (let i = 0; i < cleaned.length; i++) {
    const candidate = (cleaned.slice(0, i) + cleaned.slice(i + 1)).replace(/[OQ]/g, "0")
      .replace(/[)\]\/]/g, "J").replace(/\|/g, "1");
    if (vinCheckDigitValid(candidate)) passing.add(candidate);
  }
  return passing.size === 1
    ? {
      value: [...passing][0],
      valid: false,
      note: "a character read twice was corrected: check it",
    }
    : null;
}

/**
 * Reads a Rwandan national ID: 16 digits, `1` (citizen; 2 refugee, 3
 * foreigner), the birth year, `7` (female) or `8` (male), a 7-digit
 * sequence, the issue count and two check digits. `today` bounds the year
 * (an ID holder is at least 16).
 */
export function readNationalId(raw: string, today: Date): CheckedValue | null {
  const compact = digitsOf(raw.toUpperCase().replace(/[\s.\-]/g, ""));
  const match = /\d{16}/.exec(compact);
  if (!match || compact.replace(/\D/g, "").length > 17) return null;
  const value = match[0];
  const year = Number(value.slice(1, 5));
  const problems: string[] = [];
  if (!"123".includes(value[0])) problems.push("it does not start with 1, 2 or 3");
  if (year < 1900 || year > today.getUTCFullYear() - 16) {
    problems.push("the birth year is implausible");
  }
  if (value[5] !== "7" && value[5] !== "8") problems.push("the sex digit is not 7 or 8");
  return problems.length === 0
    ? { value, valid: true }
    : { value, valid: false, note: problems.join("; ") };
}

/** Reads a year of manufacture between 1950 and next year. */
export function readYear(raw: string, today: Date): CheckedValue | null {
  const digits = digitsOf(raw.toUpperCase());
  const match = /(19|20)\d\d/.exec(digits) ?? /(?<!\d)[12]\d{3}(?!\d)/.exec(digits);
  if (!match) return null;
  const year = Number(match[0]);
  const plausible = (value: number) => value >= 1950 && value <= today.getUTCFullYear() + 1;
  if (plausible(year)) return { value: match[0], valid: true };
  // A glyph misread the same way throughout (a typewriter's 0 read as 6: "2620"): taken when
  // exactly one swap makes a year that can be.
  const repairs = new Set<string>();
  for (const [from, tos] of Object.entries(DIGIT_SWAPS)) {
    for (const to of tos) {
      const swapped = match[0].replaceAll(from, to);
      if (swapped !== match[0] && plausible(Number(swapped))) repairs.add(swapped);
    }
  }
  if (repairs.size === 1) {
    return { value: [...repairs][0], valid: true, note: "repaired a digit", repaired: true };
  }
  return { value: match[0], valid: false, note: "implausible year" };
}

/** Digits OCR confuses, tried one at a time when a date is not a calendar date. */
const DIGIT_SWAPS: Record<string, string[]> = {
  "6": ["0", "5", "8"],
  "0": ["6", "8"],
  "8": ["0", "3", "6"],
  "3": ["8"],
  "5": ["6"],
  "1": ["7"],
  "7": ["1"],
  // A blurred 0 closes into a 9 ("2914", a month "98"); a 9 read for a 0 is never tried back,
  // where a real 9 would have two readings.
  "9": ["0"],
};

function calendarDate(day: number, month: number, year: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day
  ) {
    return null;
  }
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * Month names and their abbreviations in English, French and Kinyarwanda
 * (`Werurwe`, `Ukuboza`: Rwandan cards write dates out in it), upper case, by
 * month.
 */
const MONTH_NAMES: ReadonlyArray<[RegExp, number]> = [
  [/^(?:JAN|JANV|MUTARAMA)/, 1],
  [/^(?:FEB|F[EÉ]V|GASHYANTARE)/, 2],
  [/^(?:MAR|WERURWE)/, 3],
  [/^(?:APR|AVR|MATA$)/, 4],
  [/^(?:MAY|MAI|GICURASI)/, 5],
  [/^JUIN|^JUN|^KAMENA/, 6],
  [/^JUIL|^JUL|^NYAKANGA/, 7],
  [/^(?:AUG|AO[UÛ]|KANAMA)/, 8],
  [/^(?:SEP|NZERI)/, 9],
  [/^(?:OCT|UKWAKIRA)/, 10],
  [/^(?:NOV|UGUSHYINGO)/, 11],
  [/^(?:D[EÉ]C|UKUBOZA)/, 12],
];

/** The months in Roman numerals, January first. */
const ROMAN_MONTHS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"];

/**
 * Full month names a date written out month first may start with ("March 12,
 * 2024"): a word before a day is taken as a month only when it is one of
 * these or the start of one (three letters or more), so a label word never is.
 */
const MONTHS_WRITTEN = [
  "JANUARY",
  "FEBRUARY",
  "MARCH",
  "APRIL",
  "MAY",
  "JUNE",
  "JULY",
  "AUGUST",
  "SEPTEMBER",
  "OCTOBER",
  "NOVEMBER",
  "DECEMBER",
];

/** Month names in full in English, French and Kinyarwanda, and their three-letter forms. */
const MONTH_WORDS = new Set([
  ...MONTHS_WRITTEN,
  ..."JANVIER FEVRIER MARS AVRIL MAI JUIN JUILLET AOUT SEPTEMBRE OCTOBRE NOVEMBRE DECEMBRE"
    .split(" "),
  ..."MUTARAMA GASHYANTARE WERURWE MATA GICURASI KAMENA NYAKANGA KANAMA NZERI UKWAKIRA UGUSHYINGO UKUBOZA"
    .split(" "),
  ...MONTHS_WRITTEN.map((month) => month.slice(0, 3)),
]);

/**
 * Reads a date in any of the ways issuers print one, as ISO `YYYY-MM-DD`:
 * `DD/MM/YYYY` (or with `-`, `.`, `,`), `YYYY-MM-DD`, and `12 MAR 2024` /
 * `12 mars 2024` (English and French month names). The first date in the
 * text is taken, whichever its format. A reading that is no calendar date
 * (`28/16/2024`) is repaired when exactly one confusable digit swap makes it
 * one.
 */
export function readDate(raw: string): CheckedValue | null {
  const upper = raw.toUpperCase();
  // A date in boxes whose sides OCR read (`| 25 /|08 | 2032`): with two sides or more, the
  // `|`, `[` and `]` are the boxes', not ones (`|08` is no 108, and the `/` between them was
  // a side too); read without them first. One `|` alone may be a 1 (`|2/03/2024`).
  if ((upper.match(/[|\[\]]/g) ?? []).length >= 2) {
    const unboxed = readDate(upper.replace(/[|\[\]]/g, " "));
    if (unboxed?.valid) return unboxed;
  }
  const numeric = digitsOf(upper);
  const candidates: Array<{ at: number; day: string; month: string; year: string }> = [];
  // A month in Roman numerals ("12.IV.2019", older French and Belgian booklets). Read before
  // the digits, where OCR's `III` would pass for the month 11; a middle of digits alone stays a
  // number, so `12.11.2019` is still November.
  const roman = /(?<![\dA-Z])(\d{1,2})\s*[.\-\/ ]\s*([IVXl|1]{1,4})\s*[.\-\/ ]\s*([12]\d{3})(?!\d)/
    .exec(upper.replace(/(?<=[IVX])L|L(?=[IVX])/g, "I"));
  const romanMonth = roman && !/^\d+$/.test(roman[2])
    ? ROMAN_MONTHS.indexOf(roman[2].replace(/[1L|]/g, "I")) + 1
    : 0;
  if (roman && romanMonth > 0) {
    candidates.push({ at: roman.index, day: roman[1], month: String(romanMonth), year: roman[3] });
  }
  // A year OCR misread ("2626": a typewriter's dotted 0 read as 6) is repaired below.
  const dayFirst = /(\d{1,2})\s*[\/\-.,]\s*(\d{1,2})\s*[\/\-.,]?\s*([12]\d{3})/.exec(numeric);
  if (dayFirst) {
    candidates.push({
      at: dayFirst.index,
      day: dayFirst[1],
      month: dayFirst[2],
      year: dayFirst[3],
    });
  }
  // A date in three boxes, day, month and year (forms that print one box each, with or without
  // the boxes' edges read as `|`): two numbers of one or two digits and a year, apart. Only when
  // no separated date was found, and never inside a longer run of digit groups (an ID).
  const boxed = dayFirst ? null : /(?<!\d\s*)(\d{1,2})\s+(\d{1,2})\s+([12]\d{3})(?!\s*\d)/
    .exec(digitsOf(upper.replace(/[|\[\]]/g, " ")));
  if (boxed) {
    candidates.push({ at: boxed.index, day: boxed[1], month: boxed[2], year: boxed[3] });
  }
  // A two-digit year ("12.01.27"), with the same separator twice and nothing after it: cards
  // that print one mean this century's years before 70 and the last's after (1970–2069).
  const short = dayFirst
    ? null
    : /(?<!\d)(\d{1,2})\s*([\/\-.])\s*(\d{1,2})\s*\2\s*(\d{2})(?![\d\/\-.]\d)/
      .exec(numeric);
  if (short) {
    const yy = Number(short[4]);
    candidates.push({
      at: short.index,
      day: short[1],
      month: short[3],
      year: String(yy < 70 ? 2000 + yy : 1900 + yy),
    });
  }
  // The year first is ISO's order; a year then one or two digits, twice, is never a day first.
  const yearFirst = /((?:19|20)\d\d)\s*[\/\-.]\s*(\d{1,2})\s*[\/\-.]\s*(\d{1,2})(?!\d)/.exec(
    numeric,
  );
  if (yearFirst) {
    candidates.push({
      at: yearFirst.index,
      day: yearFirst[3],
      month: yearFirst[2],
      year: yearFirst[1],
    });
  }
  // A month's name: its letters are read as letters, the day and year as digits.
  // A day written as an ordinal ("12th March 2024", "1st", "2nd", "3rd") is the day.
  const spelled = upper.replace(/(\d{1,2})\s?(?:ST|ND|RD|TH)\b/g, "$1");
  // (A day's 7 read as T: "OT JUL 2022".)
  const named = /([0-9OILSBZT]{1,2})\s*[\-.\/]?\s*([A-ZÉÛ]{3,11})\.?\s*[\-.\/]?\s*([0-9OILSBZ]{4})/
    .exec(spelled);
  const month = named && MONTH_NAMES.find(([name]) => name.test(named[2]))?.[1];
  if (named && month && /^[12]\d{3}$/.test(digitsOf(named[3]))) {
    candidates.push({
      at: named.index,
      day: digitsOf(named[1]),
      month: String(month),
      year: digitsOf(named[3]),
    });
  }
  // The month first, as English prose writes it: "March 12, 2024".
  const monthFirst = /\b([A-Z]{3,9})\.?\s+([0-9OILSBZ]{1,2}),?\s+([0-9OILSBZ]{4})\b/.exec(spelled);
  const written = monthFirst &&
    MONTHS_WRITTEN.findIndex((name) => name.startsWith(monthFirst[1]));
  if (
    monthFirst && written !== null && written >= 0 && /^[12]\d{3}$/.test(digitsOf(monthFirst[3]))
  ) {
    candidates.push({
      at: monthFirst.index,
      day: digitsOf(monthFirst[2]),
      month: String(written + 1),
      year: digitsOf(monthFirst[3]),
    });
  }
  if (candidates.length === 0) return null;
  const match = candidates.sort((a, b) => a.at - b.at)[0];
  const plausible = (year: number) => year >= 1900 && year <= 2099;
  const exact = plausible(Number(match.year)) &&
    calendarDate(Number(match.day), Number(match.month), Number(match.year));
  if (exact) return { value: exact, valid: true };
  // One glyph misread the same way (a typewriter's 0 read as 6: "21.16.2626", "61.63.2033"): the
  // same swap repairs each part that cannot be what it stands for (a year out of range, a month
  // over 12, a day over 31); or one digit of the day and month is swapped. Taken when exactly one
  // repair makes a date.
  const repairs = new Set<string>();
  for (const [from, tos] of Object.entries(DIGIT_SWAPS)) {
    for (const to of tos) {
      const fix = (part: string, fits: (value: number) => boolean) =>
        fits(Number(part)) ? Number(part) : Number(part.replaceAll(from, to));
      const year = fix(match.year, plausible);
      const month = fix(match.month, (value) => value >= 1 && value <= 12);
      const day = fix(match.day, (value) => value >= 1 && value <= 31);
      const date = plausible(year) && calendarDate(day, month, year);
      if (date) repairs.add(date);
    }
  }
  if (plausible(Number(match.year))) {
    const text = `${match.day.padStart(2, "0")}${match.month.padStart(2, "0")}`;
    for (let i = 0; i < 4; i++) {
      for (const swap of DIGIT_SWAPS[text[i]] ?? []) {
        const next = text.slice(0, i) + swap + text.slice(i + 1);
        const date = calendarDate(
          Number(next.slice(0, 2)),
          Number(next.slice(2)),
          Number(match.year),
        );
        if (date) repairs.add(date);
      }
    }
  }
  if (repairs.size === 1) {
    return { value: [...repairs][0], valid: true, note: "repaired a digit", repaired: true };
  }
  if (!plausible(Number(match.year))) return null;
  const value = `${match.year}-${match.month.padStart(2, "0")}-${match.day.padStart(2, "0")}`;
  return { value, valid: false, note: "not a calendar date" };
}

/**
 * Reads a person's name: letters (accents, apostrophes and hyphens allowed),
 * two to five words, upper-cased as Rwandan documents print them.
 */
export function readName(raw: string): CheckedValue | null {
  // A name ends where a number starts: a table's value row runs on into the next column's ID
  // number and use ("INGABIRE JEAN CLAUDE 1 1961 7 4968923 0 80 BINAFSI").
  const tokens = raw.normalize("NFC").split(/\s+/);
  const number = tokens.findIndex((token, index) =>
    index > 0 && /\d{2,}/.test(token) && tokens.slice(0, index).some((t) => /\p{L}{2,}/u.test(t))
  );
  const letters = (number > 0 ? tokens.slice(0, number) : tokens).join(" ")
    .replace(/[^\p{L}'\- ]/gu, " ").split(/\s+/)
    .filter((word) => /\p{L}{2,}/u.test(word));
  // A word starting in lower case is prose's or a label's ("for", "pour un", "holder of"), never
  // a name's: the name is the run of words before the first such word after it starts.
  const words: string[] = [];
  for (const word of letters) {
    if (/^\p{Ll}/u.test(word)) {
      if (words.length) break;
      continue;
    }
    words.push(word);
  }
  if (words.length === 0) return null;
  const value = words.slice(0, 5).join(" ").toUpperCase();
  const valid = words.length >= 2 && words.length <= 5 && value.length <= 60;
  return valid ? { value, valid } : { value, valid, note: "a full name has two to five words" };
}

/**
 * Reads a sex as cards print it: a letter (`M`, `F`, `Gabo / M`), or a word
 * in English, French, Kinyarwanda or Swahili (`FEMALE`, `Masculin`, `GORE`,
 * Swahili's `KE` and `ME`, short for mke and mme), as `M` or `F`.
 */
export function readSex(raw: string): CheckedValue | null {
  const text = raw.toUpperCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  // The female words first: "FEMALE" holds "MALE".
  const female = /\b(?:FEMALE|FEMININ|FEMME|GORE|KE|MKE|WOMAN)\b|(?:^|[\/\s])F\b/.exec(text);
  const male = /\b(?:MALE|MASCULIN|HOMME|GABO|ME|MME|MAN)\b|(?:^|[\/\s])M\b/.exec(text);
  if (!female && !male) return null;
  // Both printed ("Gabo / M" is one; "M / F" with neither marked is not): the first one read.
  const value = female && (!male || female.index <= male.index) ? "F" : "M";
  return { value, valid: true };
}

/**
 * The ways a registration states what a vehicle is used for, in English,
 * French and Kinyarwanda, and the use each means.
 */
const USAGES: ReadonlyArray<[RegExp, string]> = [
  // A motorcycle taxi in East Africa's words too: "moto tagisi" (rw), "bodaboda" (sw).
  // (And "moto y'abagenzi", a passengers' moto.)
  [
    // (A boxed I lost between the words: "TAX MOTO".)
    /TA[XG]I?[\s\-]*MOTO|MOTO(?:R?CYCLE)?[\s\-]*TA[XG]I|BODA[\s\-]*BODA|MOTO\s*Y.?ABAGENZI/,
    "taxi-moto",
  ],
  [/TAXI|TAGISI|TEKSI/, "taxi"],
  [/PRIV|BWITE|PERSONN?EL|GITI|PARTICULIER|BINAFSI/, "private"],
  // (Carrying passengers, "abagenzi", for pay.)
  [
    /COMMERC|UBUCURUZI|TRANSPORT|HIRE|LOCATION|RENTAL|PUBLIC|UTILITAIRE|BIASHARA|ABAGENZI/,
    "commercial",
  ],
  [/GOUVERN|GOVERN|LETA/, "government"],
];

/** Whole use words of six letters or more, for a reading a slip or two off ({@link readUsage}). */
const USAGE_WORDS: ReadonlyArray<[string, string]> = [
  ["COMMERCIAL", "commercial"],
  ["COMMERCIALE", "commercial"],
  ["UBUCURUZI", "commercial"],
  ["TRANSPORT", "commercial"],
  ["PRIVATE", "private"],
  ["PRIVEE", "private"],
  ["PARTICULIER", "private"],
  ["GOVERNMENT", "government"],
  ["GOUVERNEMENT", "government"],
  ["TAXIMOTO", "taxi-moto"],
  ["MOTOTAXI", "taxi-moto"],
];

/** What the vehicle is used for, in the insurance's own terms. */
export const USAGE_VALUES = ["private", "commercial", "taxi", "taxi-moto", "government"] as const;

/**
 * Reads a vehicle's use (`PRIVATE`, `Privé / Private`, `TAXI-MOTO`,
 * `Ubucuruzi`) as one of {@link USAGE_VALUES}; a use we do not recognise is
 * answered as read, doubtful, for the customer to say.
 */
export function readUsage(raw: string): CheckedValue | null {
  const upper = raw.toUpperCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  // A use is one word (or two joined by a dash): OCR splits it at a wide letter ("PRI VÉ").
  const joined = upper.replace(/\s+/g, "");
  for (const text of [upper, joined]) {
    for (const [shape, value] of USAGES) {
      if (shape.test(text)) return { value, valid: true };
    }
  }
  // A long use word with a letter or two lost or misread ("CO ERCIAL", "PRIVAIE"), or its
  // start or end lost to a gap OCR split it at ("ERCIAL"): the one use it is near, doubtful.
  const letters = joined.replace(/[^A-Z]/g, "");
  const near = letters.length >= 6
    ? USAGE_WORDS.filter(([word]) =>
      editDistance(letters, word) <= (word.length >= 9 ? 2 : 1) ||
      (word.length >= 9 && (word.startsWith(letters) || word.endsWith(letters)))
    ).map(([, value]) => value)
    : [];
  if (near.length && near.every((value) => value === near[0])) {
    return { value: near[0], valid: false, note: "repaired a letter: check it" };
  }
  const word = upper.replace(/[^A-Z\- ]/g, " ").trim().split(/\s+/)[0] ?? "";
  if (word.length < 3) return null;
  // A month's name is a date's word beside the use's label ("12 Ugushyingo 2019"), never a use.
  if (MONTH_WORDS.has(word)) return null;
  return { value: word.toLowerCase(), valid: false, note: "a use we do not know: say what it is" };
}

/**
 * Reads a driving licence number. The formats Rwanda's licences carry
 * (docs/ocr.md): two digits, a letter and six digits (`12A345678`), and the
 * newer cards' 16-digit number, which has the national ID's structure. Any
 * other run of 6–16 letters and digits is answered as read, doubtful (an
 * older or foreign licence): never dropped.
 */
export function readLicenceNumber(raw: string, today: Date): CheckedValue | null {
  const upper = raw.toUpperCase();
  const classic = /\b(\d{2})\s*([A-Z0-9])\s*(\d{6})\b/.exec(upper);
  // A 16-digit number also holds two digits, a character and six digits: it is read whole below.
  if (classic && !/\d{16}/.test(digitsOf(upper.replace(/[\s.\-]/g, "")))) {
    const letter = lettersOf(classic[2]);
    if (/[A-Z]/.test(letter)) return { value: `${classic[1]}${letter}${classic[3]}`, valid: true };
  }
  const long = readNationalId(upper, today);
  if (long) {
    return long.valid
      ? long
      : { value: long.value, valid: false, note: "a 16-digit number we cannot check: check it" };
  }
  const token = upper.split(/\s+/).map((part) => part.replace(/[^A-Z0-9\/\-]/g, ""))
    .find((part) => part.replace(/[^A-Z0-9]/g, "").length >= 6 && /\d{3}/.test(part));
  if (!token) return null;
  return { value: token, valid: false, note: "a licence number format we cannot check: check it" };
}

/** Vehicle makes sold in East Africa: a make is known by its name where its label was lost. */
export const VEHICLE_MAKES: ReadonlySet<string> = new Set([
  "TOYOTA",
  "NISSAN",
  "HONDA",
  "SUZUKI",
  "MITSUBISHI",
  "MAZDA",
  "SUBARU",
  "ISUZU",
  "HYUNDAI",
  "KIA",
  "MERCEDES",
  "MERCEDES-BENZ",
  "BMW",
  "VOLKSWAGEN",
  "VW",
  "AUDI",
  "PEUGEOT",
  "RENAULT",
  "FORD",
  "CHEVROLET",
  "LAND",
  "LANDROVER",
  "DAIHATSU",
  "HINO",
  "FUSO",
  "TATA",
  "ASHOK",
  "BAJAJ",
  "TVS",
  "YAMAHA",
  "KAWASAKI",
  "HERO",
  "LIFAN",
  "HAOJUE",
  "SINORAY",
  "VOLVO",
  "SCANIA",
  "MAN",
  "IVECO",
  "JEEP",
  "LEXUS",
  "INFINITI",
  "GEELY",
  "CHERY",
  "FAW",
  "DONGFENG",
  "SKODA",
]);

/**
 * Reads a make: as printed, or, when its first word is no make we know, the one make within one
 * OCR slip of it (five letters or more: `BAJA]` with its J read as a bracket, `T0YOTA`), kept
 * with a note. A make we do not know is read as printed (a card may carry any maker).
 */
export function readMake(raw: string): CheckedValue | null {
  const read = readWord(raw);
  if (!read) return null;
  const first = raw.trim().split(/\s+/)[0].toUpperCase();
  const letters = first.replace(/[)\]]$/, "J").replace(/[^A-Z0-9-]/g, "");
  if (VEHICLE_MAKES.has(read.value.split(" ")[0]) || letters.length < 4) return read;
  if (VEHICLE_MAKES.has(letters)) return { value: letters, valid: true, note: "repaired a letter" };
  const near = [...VEHICLE_MAKES].filter((make) =>
    make.length >= 5 && editDistance(letters.replace(/0/g, "O"), make) <= 1
  );
  return near.length === 1 ? { value: near[0], valid: true, note: "repaired a letter" } : read;
}

/** Reads a single upper-case word or short phrase (a make, a model, a category list). */
export function readWord(raw: string): CheckedValue | null {
  // A comma or dash at either end is prose's or a list's ("make TOYOTA, model …"), not the word's.
  const value = raw.toUpperCase().replace(/[^A-Z0-9 \-,]/g, "").replace(/\s+/g, " ")
    .replace(/^[\s,\-]+|[\s,\-]+$/g, "");
  if (value.length < 1 || value.length > 30) return null;
  // A lone letter is OCR's debris of a rule or a symbol ("f"), not a make or a model.
  return { value, valid: /[A-Z]/.test(value) && value.replace(/[^A-Z0-9]/g, "").length >= 2 };
}

/**
 * Rwanda's thirty districts (and Kigali, the city): where an ID card is
 * issued. Public administrative geography, not the fixtures' list.
 */
export const RWANDA_DISTRICTS = [
  "NYARUGENGE",
  "GASABO",
  "KICUKIRO",
  "NYANZA",
  "GISAGARA",
  "NYARUGURU",
  "HUYE",
  "NYAMAGABE",
  "RUHANGO",
  "MUHANGA",
  "KAMONYI",
  "KARONGI",
  "RUTSIRO",
  "RUBAVU",
  "NYABIHU",
  "NGORORERO",
  "RUSIZI",
  "NYAMASHEKE",
  "RULINDO",
  "GAKENKE",
  "MUSANZE",
  "BURERA",
  "GICUMBI",
  "RWAMAGANA",
  "NYAGATARE",
  "GATSIBO",
  "KAYONZA",
  "KIREHE",
  "NGOMA",
  "BUGESERA",
  "KIGALI",
] as const;

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/**
 * Reads a place of issue: one of Rwanda's districts, as printed or within
 * one or two OCR slips of exactly one of them (`NYARUGENGF`). Anything else
 * (a label's word, a place abroad) is kept as read, doubtful.
 */
export function readPlace(raw: string): CheckedValue | null {
  const words = raw.toUpperCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Z ]/g, " ").split(/\s+/).filter((word) => word.length >= 3);
  for (const word of words) {
    if ((RWANDA_DISTRICTS as readonly string[]).includes(word)) return { value: word, valid: true };
  }
  for (const word of words) {
    const near = RWANDA_DISTRICTS.filter((district) =>
      word.length >= 4 && editDistance(word, district) <= (district.length >= 7 ? 2 : 1)
    );
    if (near.length === 1) return { value: near[0], valid: true, note: "repaired a letter" };
  }
  const value = readWord(raw);
  // A place has letters: digits alone are a date or a number beside it, never a place.
  return value && /[A-Z]{3}/.test(value.value)
    ? { value: value.value, valid: false, note: "not a district we know: check it" }
    : null;
}
