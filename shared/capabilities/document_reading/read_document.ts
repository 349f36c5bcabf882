/**
 * From OCR lines to a document's fields: which kind of document the page is
 * (by its title and the labels it carries, never by OCR confidence alone: a
 * receipt reads at 95%), each field found by where it sits from its label
 * (to its right on the same row, or under it in the same column: one- and
 * two-column cards, tables, labels in one language or three), or failing
 * that by its shape anywhere on the page, checked by `document_fields.ts`,
 * and a confidence per field and per document that combines what OCR was
 * sure of with whether the value passed its check.
 *
 * @module
 */
import {
  type CheckedValue,
  readDate,
  readLicenceNumber,
  readMake,
  readName,
  readNationalId,
  readPlace,
  readPlate,
  readSex,
  readUsage,
  readVin,
  readWord,
  readYear,
  RWANDA_DISTRICTS,
  VEHICLE_MAKES,
} from "./document_fields.ts";
import { withoutCombEdges } from "./comb_boxes.ts";
import { vinAgainstMake } from "./vin_makers.ts";
import { printsRomanMonths, withRomanMonth } from "./roman_months.ts";
import { tickedOptions } from "./tick_boxes.ts";
import { asLabelWord, slipDistance } from "./label_slips.ts";
import { type OcrGlyph, respaceWords } from "./letter_spacing.ts";

/** The document types ocr_extract reads. */
export const DOCUMENT_TYPES = ["vehicle_registration", "id_card", "license", "policy"] as const;

/** A document type. */
export type DocumentType = typeof DOCUMENT_TYPES[number];

/** A rectangle on the page, in pixels: left, top, right, bottom. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One word OCR read, where it sits, and its confidence 0–100. */
export interface OcrWord {
  text: string;
  confidence: number;
  box: Box;
  /**
   * Its characters with their boxes, when the engine gives them (tesseract does): letter-spaced
   * print is rebuilt into words from them ({@link respaceWords}).
   */
  glyphs?: readonly OcrGlyph[];
}

/** One line OCR read, with its confidence 0–100. */
export interface OcrLine {
  /** The line's text. */
  text: string;
  /** OCR's confidence in it, 0–100. */
  confidence: number;
  /**
   * Its words with their boxes, when the engine gives them (tesseract does;
   * a vision model's answer does not, and is placed as one word per token).
   */
  words?: OcrWord[];
}

/** One field as read: value, confidence 0–1, and why it is doubtful. */
export interface ReadField {
  value: string;
  confidence: number;
  valid: boolean;
  note?: string;
}

/** What a page turned out to be. */
export type DocumentReading =
  | {
    kind: "document";
    /** The type the page shows. */
    type: DocumentType;
    /** The fields found. */
    fields: Record<string, ReadField>;
    /** 0–1 for the whole document. */
    confidence: number;
    /** Expected fields that were not found. */
    missing: string[];
  }
  /** A document of a known type, but too few of its fields could be read (blur, glare, crop). */
  | { kind: "unreadable"; type: DocumentType; found: number; expected: number }
  /** Not one of our documents (a receipt, a photo, a word). */
  | { kind: "not_a_document" };

type Reader = (raw: string, today: Date) => CheckedValue | null;

interface FieldRule {
  /**
   * The label in any of its languages and wordings: each match marks label
   * words; the value is right of them or under them.
   */
  label: RegExp;
  read: Reader;
  /** A shape that finds the value anywhere on the page when its label is unreadable. */
  anywhere?: RegExp;
  /**
   * A value found by its shape may be one whose check passed only after one
   * character was corrected (kept doubtful, for the customer to confirm).
   */
  anywhereRepaired?: boolean;
}

/** A closed choice's reader: a form that prints every option reads as the ticked ones. */
const choice = (read: Reader): Reader => (raw, today) => {
  const chosen = tickedOptions(raw);
  return chosen === null ? null : read(chosen, today);
};
const date: Reader = (raw) => readDate(raw);
const name: Reader = (raw) => readName(raw);
const word: Reader = (raw) => readWord(raw);
// (Its groups apart, together, or joined by hyphens: "1-1984-8-8432333-1-39".)
const NATIONAL_ID_SHAPE =
  /\b[123][\s\-]?(?:19|20)\d\d[\s\-]?[78][\s\-]?\d{7}[\s\-]?\d[\s\-]?\d{2}\b/;

// Labels several document types share, in Kinyarwanda, French and English.
const NAME_LABEL =
  /\b(?:full\s+)?names?\b|amazina(?:\s+y.uwahawe\s+uruhushya)?|holder.?s?\s+name|\bama\w{2,4}\s*\/?\s*n\w{3}s\b|\bnoms?(?:\s+et\s+pr[ée]noms?)?\b|surname(?:\s+and\s+given\s+names?)?|\bjina(?:\s+kamili)?\b/i;
const BIRTH_LABEL =
  /date\s+of\s+(?:birth|\w*r[nt]h?)\b|amav\w*|date\s+de\s+naissance|n[ée]\(?e?\)?\s+le|n[ée][(l]e\)?\s+le|\bd\.?\s?o\.?\s?b\b\.?|birth\s*date|yavutse(?:\s+ku\s+wa)?|\bborn(?:\s+on)?\b|tarehe\s+ya\s+kuzaliwa/i;

// Issue and expiry in the wordings and abbreviations cards print ("Date issued", "Exp.").
const ISSUE_LABEL =
  /date\s+of\s+issue|issue\s+date|date\s+issued|[yr]w?atanzwe(?:\s+ku\s+wa)?|(?:itariki\s+)?yatangiweho|issued(?:\s+on)?|\biss\b\.?|d[ée]l[il1]vr[éeè]e?(?:\s+le)?|date\s+de\s+d[ée]l[il1]vrance|date\s+d.[ée]mission|[ée]mis\s+le|igihe\s+(?:cy)?atangiwe|first\s+regist(?:ered|ration)|tarehe\s+ya\s+(?:kutolewa|usajili)/i;
const EXPIRY_LABEL =
  /expiry(?:\s+date)?|[ir]u?zarangira(?:\s+ku\s+wa)?|valid\s+(?:until|till|to)|expir\w*|\bexp\b\.?|valable\s+jusqu.\w*|date\s+d.expiration|\bmwisho\b|tarehe\s+ya\s+kuisha|inaisha|halali\s+hadi/i;

/** Per type: the words of its title and each field's label and reader. */
const LAYOUTS: Record<DocumentType, { title: RegExp[]; fields: Record<string, FieldRule> }> = {
  vehicle_registration: {
    title: [
      /certificate\s+of\s+registration/i,
      /registration\s+certificate/i,
      /iyandikwa/i,
      /iyandikisha/i,
      /immatriculation/i,
      /carte\s+(?:jaune|grise)/i,
      /usajili\s+wa\s+gari/i,
      /chassis/i,
    ],
    fields: {
      plate: {
        label:
          /plate\s*(?:n[o0°º]\.?|number)?|(?:n[o0°º]\s*(?:de\s+)?)?plaque(?:\s+d.immatriculation)?|purake|(?:n[uo]mero\s+y.)?icyapa|registration\s+(?:n[o0°º]\.?|mark|number)|reg\.?\s*(?:n[o0°º]\.?|mark)|\bimmat\b\.?|(?:n[o0°º]|num[ée]ro)\s*d.immatriculation|nimero\s+iranga\s+ikinyabiziga|namba\s+ya\s+(?:gari|usajili)|nambari\s+ya\s+usajili/i,
        read: readPlate,
        // (A J read as a bracket, `RG] 701 H`, as readPlate reads it.)
        anywhere: /\b(?:R[A-Z0-9)\]]{1,2}|GR|RNP|RDF)\s*\d{3}\s*[A-Z]\b/,
      },
      vin: {
        label: /\bvin\b|ch[aâ]ss?is(?:\s+n[o0°º]\.?)?|shasi|chasisi/i,
        read: (raw) => readVin(firstToken(raw, 17)),
        // A VIN's check digit makes it safe to take without its label, once repaired too.
        // (Or read with one glyph twice: eighteen characters, one a letter, see readVin.)
        anywhere:
          /(?<![A-Z0-9])(?:[A-Z0-9\/)\]|]{17}|(?=[0-9\/)\]|]*[A-Z])[A-Z0-9\/)\]|]{18})(?![A-Z0-9])/,
        anywhereRepaired: true,
      },
      make: {
        label: /\bmake\b|marque|ikirango|\bbrand\b|\bmanufacturer\b|aina\s+ya\s+gari/i,
        read: readMake,
      },
      model: {
        label:
          /\bmodel\b|mod[eè]le|\bubwoko\b|type\s+commercial|d[ée]nomination\s+commerciale|\bmodeli\b|\bmuundo\b/i,
        read: word,
      },
      year: {
        label:
          /\byear(?:\s+of\s+manufacture)?\b|umwaka(?:\s+wakorewemo)?|ann[ée]e(?:\s+de\s+fabrication|\s+fab\w*\.?)?|\byr\.?(?:\s+of\s+m\w*)?(?![\w'])|\bmfg\.?\s+year|year\s+of\s+make|manufactured\s+in|fabriqu[ée]e?\s+en|\by\.?\s?o\.?\s?m\b\.?|mwaka\s+wa\s+(?:kutengenezwa|utengenezaji)/i,
        read: readYear,
      },
      owner_name: {
        label:
          /\b[oq0]wner(?:.?s\s+full\s+name)?\b(?!\s*[i1l|]d)|\bholder\b(?!.?s?\s+[i1l|]d)|nyirayo|nyir.ikinyabiziga|propri[ée]taire|titulaire|\bmmiliki\b(?!\s+(?:kitambulisho|namba))/i,
        read: name,
      },
      owner_national_id: {
        label:
          /owner\s*n?[i1l|]?d\b|holder.?s?\s+[i1l|]d\b|\bn[i1l|]d\b|indangamuntu(?:\s+ya\s+nyirayo)?|national\s+[i1l|]d|n[o°º]\.?\s*d.identit[ée]|\b[i1l|]d\s*n[o0°º]\.?\s*of\s+(?:the\s+)?owner|n[o0°º]\.?\s*[i1l|]d\s+propri[ée]taire|n[o0°º]\.?\s*carte\s+d.identit[ée]|\bnin\b|kitambulisho(?:\s+cha\s+mmiliki)?/i,
        read: readNationalId,
        anywhere: NATIONAL_ID_SHAPE,
      },
      issue_date: { label: ISSUE_LABEL, read: date },
      expiry_date: { label: EXPIRY_LABEL, read: date },
      usage: {
        label:
          /\busage\b|\buse\b|utilisation|[i1l|\[]?koreshwa|icyo\s+gikoreshwa|imikoreshereze|\bpurpose\b|\bmatumizi\b/i,
        read: choice(readUsage),
        // Only a use no other field prints (a make or a name never reads "TAXI-MOTO").
        anywhere: /\bTAXI?[\s-]*MOTO\b|\bMOTO[\s-]*TAXI\b/,
      },
    },
  },
  license: {
    title: [
      /driving\s+(?:licen[cs]e|permit)/i,
      /driver.?s?\s+(?:licen[cs]e|permit)/i,
      /permis\s+de\s+conduire/i,
      /leseni\s+ya\s+udereva/i,
      /uruhushya/i,
      /ibinyabiziga/i,
    ],
    fields: {
      full_name: {
        label: NAME_LABEL,
        read: name,
      },
      date_of_birth: { label: BIRTH_LABEL, read: date },
      national_id: {
        label:
          /national\s+[i1l|]?d|indangamuntu|num[ée]ro\s+national|\bn[i1l|]d\b|\b[i1l|]d\s*n[o0°º]\.?|n[o0°º]\s*[i1l|]d(?:\s+national)?|n[o0°º]\.?\s*national|\b[i1l|]d\s+number|kitambulisho|\bnin\b/i,
        read: readNationalId,
        anywhere: NATIONAL_ID_SHAPE,
      },
      licence_number: {
        label:
          /licen[cs]e\s*(?:n[o0°º]\.?|number|#)|num[ée]ro\s+du\s+permis|namba\s+ya\s+leseni|nimero|\by.\s?uruhushya|permis\s*n[o0°º]|n[o0°º]\s*(?:du\s+|de\s+)?permis|\bd\.?l\.?\s*n[o0°º]\.?|permit\s*(?:n[o0°º]\.?|number)/i,
        read: readLicenceNumber,
        // The older cards' checked format (two digits, a letter, six digits) is no other
        // field's: found without its label too. A number of another format needs its label.
        anywhere: /\b\d{2}[A-Z]\d{6}\b/,
      },
      categories: {
        label: /categor\w*|cat[ée]gories?|ibyiciro|class(?:es)?\b|\bcat\b\.?|\b(?:ma)?daraja\b/i,
        read: choice((raw) => {
          // A category is a letter: a lone 8 is OCR's B.
          const list = raw.toUpperCase().split(/[,;\s]+/).map((token) =>
            token.replace(/[^A-Z0-9]/g, "").replace(/^8$/, "B")
          )
            .flatMap((token) =>
              /^[A-F][1E]?$/.test(token)
                ? [token]
                // Categories run together when OCR loses their commas ("BC" for "B, C"); a
                // trailer's E stays with its letter above.
                : /^[A-D]{2,4}$/.test(token)
                ? [...token]
                : /^[A-F][A-Z]$/.test(token)
                ? [token[0]]
                : []
            )
            .filter(Boolean);
          if (list.length === 0) return null;
          return { value: [...new Set(list)].join(", "), valid: true };
        }),
      },
      issue_date: { label: ISSUE_LABEL, read: date },
      expiry_date: { label: EXPIRY_LABEL, read: date },
    },
  },
  id_card: {
    title: [
      /identity\s+card/i,
      /carte\s+(?:nationale\s+)?d.identit/i,
      /^\W*indangamuntu\W*$/i,
      // Its name in two languages on one line, in capitals as titles are printed (a label
      // "Indangamuntu / National ID" over an owner's ID is in small letters).
      /^\W*(?:INDANGAMUNTU\s*[\/|]\s*NATIONAL\s+ID(?:ENTITY)?(?:\s+CARD)?|NATIONAL\s+ID(?:ENTITY)?(?:\s+CARD)?\s*[\/|]\s*INDANGAMUNTU)\W*$/,
      /kitambulisho\s+cha\s+taifa/i,
    ],
    fields: {
      full_name: { label: NAME_LABEL, read: name },
      date_of_birth: { label: BIRTH_LABEL, read: date },
      sex: {
        label: /\bsexe?\b|igitsina|\bgender\b|\bgenre\b|\bjinsia\b/i,
        read: choice((raw) => readSex(raw)),
      },
      place_of_issue: {
        label:
          /place\s+of\s+issue|yatangiwe\b|lieu\s+de\s+d\S*livrance|issued\s+at|d[ée]livr[ée]e?\s+[àa]|lieu\s+d.[ée]mission|issuing\s+office|mahali\s+pa\s+kutolewa/i,
        read: readPlace,
      },
      national_id: {
        label:
          /national\s+\S{0,2}\s*n[o0°]\.?|national\s+[i1l|]d|id\s*no\.?|num[ée]ro\s+national|\bn[i1l|]d\b|n[o0°º]\s*[i1l|]d(?:\s+national)?|n[oi]mero\s+y.indangamuntu|n[o0°º]\.?\s*d.identification|kitambulisho|\bnin\b/i,
        read: readNationalId,
        anywhere: NATIONAL_ID_SHAPE,
      },
      issue_date: {
        label:
          /date\s+of\s+issue|issue\s+date|date\s+issued|yatangiweho|date\s+de\s+d[ée]l[il1]vrance|d[ée]l[il1]vr[éeè]e?\s+le|date\s+d.[ée]mission|igihe\s+(?:cy)?atangiwe|tarehe\s+ya\s+kutolewa/i,
        read: date,
      },
    },
  },
  policy: {
    title: [/insurance\s+policy/i, /police\s+d.assurance/i, /ubwishingizi/i],
    fields: {
      insurer: { label: /insurer|assureur/i, read: word },
      policy_number: {
        label: /policy\s*n[o0°]\.?|police\s*n[o0°]/i,
        read: (raw) => {
          const match = /P[O0]L\s*-?\s*([\dOISB]{4})\s*-?\s*([\dOISB]{6})/i.exec(raw.toUpperCase());
          if (!match) return null;
          const fix = (text: string) =>
            text.replace(/O/g, "0").replace(/I/g, "1").replace(/S/g, "5").replace(/B/g, "8");
          return { value: `POL-${fix(match[1])}-${fix(match[2])}`, valid: true };
        },
      },
      insured_name: { label: /insured|assur[ée]\b/i, read: name },
      plate: { label: /plate\s*n[o0°]\.?|plaque/i, read: readPlate },
      start_date: { label: /\bfrom\b|\bdu\b/i, read: date },
      end_date: { label: /\bto\b|\bau\b/i, read: date },
    },
  },
};

/** The fields a document type yields, in order. */
export function fieldsOf(type: DocumentType): string[] {
  return Object.keys(LAYOUTS[type].fields);
}

/** The first run of characters that could be a token of `length` (a VIN is printed in one piece). */
function firstToken(raw: string, length: number): string {
  // Characters OCR reads for a VIN's own (")" or "/" for a J, "|" for a 1) are kept inside a
  // token, not at its ends.
  const clean = (token: string) =>
    token.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "").replace(/[^A-Za-z0-9)\]|\/]/g, "");
  const tokens = raw.trim().split(/\s+/);
  const exact = tokens.find((token) => clean(token).length === length);
  if (exact) return clean(exact);
  // OCR sometimes splits a VIN once: join neighbours.
  for (let i = 0; i + 1 < tokens.length; i++) {
    const joined = clean(tokens[i] + tokens[i + 1]);
    if (joined.length === length) return joined;
  }
  // Or read with one character too many (a glyph read twice), for the reader to repair.
  const longer = tokens.find((token) => clean(token).length === length + 1);
  if (longer) return clean(longer);
  return tokens[0] ?? "";
}

/**
 * A word as a label is matched: OCR reads a capital I as a lower-case l at a word's start
 * ("lgitsina", "lkirango"), and no label of ours starts with an l before a consonant. The
 * text keeps its length, so a match still maps to its words.
 */
function asLabelText(text: string): string {
  return text.replace(/^l(?=[bcdfgkmnrstvwxyz])/, "I");
}

const COUNTRY = /republ?ika\s+y.u\s+rwanda|republic\s+of\s+rwanda|rwanda/i;

/**
 * The state's header as OCR leaves it on a worn photo: "REPUBLIC OF Beanba", "REPUB OF CE HAMDA",
 * "BEPURULIRA VL RWANDA". With a title it says the page is an official document of that type.
 */
const STATE_HEADER = /\brepu[bs]\w*|\bre?publ|\brwanda\b/i;

/**
 * Per type, the long words of its title that no other type prints, matched within OCR's slips
 * ({@link nearTitleWord}): blur and a second JPEG turn `IYANDIKWA` into `TYANDIKWA` and
 * `INDANGAMUNTU` into `IMDANCAMUMTU`. `alone`: only as a line of its own (on a vehicle's card
 * `Indangamuntu` labels the owner's ID). Not `IBINYABIZIGA` (a licence's): one slip from a
 * registration's `IKINYABIZIGA`.
 */
const TITLE_WORDS: Record<DocumentType, ReadonlyArray<{ word: string; alone?: boolean }>> = {
  vehicle_registration: [{ word: "IYANDIKWA" }, { word: "IYANDIKISHA" }, {
    word: "IMMATRICULATION",
  }],
  license: [{ word: "URUHUSHYA" }],
  id_card: [{ word: "INDANGAMUNTU", alone: true }],
  policy: [{ word: "UBWISHINGIZI" }],
};

/**
 * Whether a line holds one of a type's title words within OCR's slips: at most one letter
 * wrong, or up to three confusable ones (a distance of 1.5), in a word of nine letters or more.
 */
function nearTitleWord(line: string, title: { word: string; alone?: boolean }): boolean {
  const words = line.toUpperCase().split(/[^A-Z0-9|!]+/).filter((word) => word.length >= 3);
  if (title.alone && words.length !== 1) return false;
  return words.some((word) =>
    Math.abs(word.length - title.word.length) <= 1 && slipDistance(word, title.word) <= 1.5
  );
}

/** Which document type the page shows: the type whose title words and labels it carries most. */
export function classify(lines: readonly OcrLine[]): { type: DocumentType; score: number } | null {
  const text = lines.map((line) => line.text).join("\n");
  let best: { type: DocumentType; score: number } | null = null;
  for (const type of DOCUMENT_TYPES) {
    const layout = LAYOUTS[type];
    const printed = layout.title.filter((title) =>
      title.flags.includes("m") || title.source.startsWith("^")
        ? lines.some((line) =>
          title.test(line.text)
        )
        : title.test(text)
    ).length;
    // A title word a slip or two off counts once, when no title was read as printed.
    const slipped = TITLE_WORDS[type].some((title) =>
      lines.some((line) => nearTitleWord(line.text, title))
    );
    const titles = printed || (slipped ? 1 : 0);
    const labels = Object.values(layout.fields).filter((rule) =>
      lines.some((line) => rule.label.test(line.text.split(" ").map(asLabelText).join(" ")))
    ).length;
    // Values whose shape alone names them (a plate, a VIN, a national ID): small labels are
    // the first thing blur and glare erase, the large values often survive.
    const upper = text.toUpperCase();
    // A date counts as one such value (every type carries dates).
    const shapes = Object.values(layout.fields).filter((rule) => rule.anywhere?.test(upper))
      .length + (DATE_SHAPES.some((shape) => new RegExp(shape.source).test(upper)) ? 1 : 0);
    // A title word counts for two labels; the country line is a small hint only.
    const score = titles * 2 + labels + shapes * 0.5 + (COUNTRY.test(text) ? 0.5 : 0);
    // A title with two labels, or with one value of its type's shape, is a document; a page
    // whose title OCR missed, glare hid or the photo cut off is still known by its labels (four
    // of one type's), or by labels and values only that type prints together (two labels with
    // two typed values: a plate and a VIN, a national ID and a date; three with one). A
    // receipt's dates and amounts are no such values, and its words no such labels.
    // A title under the state's header is an official document of that type, however little
    // else a worn photo kept legible: it is then read, or refused as unreadable, not as "no
    // document" (a receipt prints neither).
    const official = titles > 0 && lines.some((line) => STATE_HEADER.test(line.text));
    const known = official || (titles > 0 && (labels >= 2 || shapes >= 1)) || labels >= 4 ||
      (labels >= 2 && shapes >= 2) || (labels >= 3 && shapes >= 1);
    if (known && (!best || score > best.score)) best = { type, score };
  }
  return best;
}

/** Options for {@link readDocument}. */
export interface ReadDocumentOptions {
  /** Today (dates and years are checked against it). */
  today: Date;
  /**
   * Repair OCR confusions and check values (the product). `false` takes the
   * text after each label as it is: the baseline the gain is measured against.
   * @default true
   */
  validate?: boolean;
}

/**
 * Reads a page's OCR lines as a document: classifies it, finds each field
 * by where it sits from its label (or by its shape), checks it, and scores
 * confidence. A page is refused as `unreadable` only when too little of it
 * was read to be useful: fewer than a third of its type's fields (and
 * fewer than three).
 */
export function readDocument(
  lines: readonly OcrLine[],
  options: ReadDocumentOptions,
): DocumentReading {
  const validate = options.validate ?? true;
  lines = lines.map(respaced);
  if (printsRomanMonths(lines.map((line) => line.text))) lines = lines.map(romanMonths);
  const kind = classify(lines);
  if (!kind) return { kind: "not_a_document" };
  const layout = LAYOUTS[kind.type];
  const words = placed(lines);
  const used = new Set<PlacedWord>();
  const labels = new Set<PlacedWord>();
  const fields = findFields(words, layout.fields, options.today, validate, used, labels);
  if (validate) {
    byShape(kind.type, words, used, fields, options.today, new Set(Object.keys(layout.fields)), {
      labels,
    });
    crossCheck(kind.type, fields, options.today);
  }
  const expected = Object.keys(layout.fields).length;
  const found = Object.keys(fields).length;
  if (found < Math.min(3, Math.ceil(expected / 3))) {
    return { kind: "unreadable", type: kind.type, found, expected };
  }
  return documentReading(kind.type, fields);
}

/** Where a field's value should be and was not read: the page area beside and under its label. */
export interface MissingValue {
  field: string;
  /** The label's box. */
  label: Box;
  /** The area to read again: right of the label on its row, and the row under it. */
  area: Box;
}

/**
 * How far under its label a value's area reaches, in label heights: a value printed in boxes
 * (a date's day, month and year each in its own) sits lower than plain print and is taller
 * than its small label; an area of 2.5 label heights cut its digits in half, and OCR read
 * nothing there.
 */
export const AREA_BELOW = 4;

/**
 * How far left of its label a value's area starts, in label heights: OCR often misses a label's
 * first word (an abbreviation such as `Itar.`), so the label found starts right of where the
 * value under it starts (a date's day box).
 */
export const AREA_LEFT = 3;

/**
 * The fields of a page's type whose label was found but whose value was not
 * read, with the area where the value should be: right of the label on its
 * row (up to the next label on that row, or 14 label heights) and under it
 * ({@link AREA_BELOW} label heights, as wide as that, from {@link AREA_LEFT} label heights
 * left of the label). The engine reads those
 * areas once more, larger and binarised (the crop-and-reread): a value a
 * look at the whole page lost to a faint, small or noisy stretch is often
 * read on its own. A field whose label was not found has no area: the
 * reader has nothing to place its value by.
 */
export function missingValues(
  lines: readonly OcrLine[],
  options: ReadDocumentOptions & {
    /**
     * Fields read but doubtful (failing their check) whose label's area is wanted too: a value
     * read a letter off on the page is often read right on its own, larger. @default none
     */
    doubtful?: readonly string[];
  },
): MissingValue[] {
  lines = lines.map(respaced);
  const kind = classify(lines);
  if (!kind) return [];
  const layout = LAYOUTS[kind.type];
  const words = placed(lines);
  const used = new Set<PlacedWord>();
  const labels = new Set<PlacedWord>();
  const fields = findFields(words, layout.fields, options.today, true, used, labels);
  byShape(kind.type, words, used, fields, options.today, new Set(Object.keys(layout.fields)), {
    labels,
  });
  const spans = labelSpans(words, layout.fields);
  const out: MissingValue[] = [];
  for (const field of Object.keys(layout.fields)) {
    if (fields[field] && !options.doubtful?.includes(field)) continue;
    const span = spans.find((span) => span.field === field);
    if (!span) continue;
    const h = height(span.box);
    // The next label on the label's row bounds the area on the right.
    const nextOnRow = spans.filter((other) =>
      other !== span && other.box.x0 > span.box.x1 &&
      Math.abs(middle(other.box) - middle(span.box)) < h
    ).map((other) => other.box.x0);
    const right = Math.min(span.box.x1 + 14 * h, ...nextOnRow);
    out.push({
      field,
      label: span.box,
      area: {
        x0: Math.round(span.box.x0 - AREA_LEFT * h),
        y0: Math.round(span.box.y0 - 0.4 * h),
        x1: Math.round(Math.max(right, span.box.x0 + 8 * h)),
        y1: Math.round(span.box.y1 + AREA_BELOW * h),
      },
    });
  }
  return out;
}

// A line with its values in boxes and its letter-spaced stretches rebuilt into words, when the
// engine gave characters.
function respaced(line: OcrLine): OcrLine {
  if (!line.words?.some((word) => word.glyphs?.length)) return line;
  const words = respaceWords(line.words.flatMap(withoutCombEdges));
  return { ...line, text: words.map((word) => word.text).join(" "), words };
}

// A line on a page that prints Roman months, with the months OCR read as ones written as strokes.
function romanMonths(line: OcrLine): OcrLine {
  if (!line.words) {
    const text = line.text.split(" ").map((token) =>
      withRomanMonth({ text: token, box: { x0: 0, y0: 0, x1: 0, y1: 0 } }).text
    ).join(" ");
    return { ...line, text };
  }
  const words = line.words.map(withRomanMonth);
  return { ...line, text: words.map((word) => word.text).join(" "), words };
}

// A document's fields with what they leave missing and their confidence, over every field
// its type has (a missing field counts as 0).
function documentReading(type: DocumentType, fields: Record<string, ReadField>): DocumentReading {
  const names = Object.keys(LAYOUTS[type].fields);
  const missing = names.filter((field) => !(field in fields));
  const sum = Object.values(fields).reduce((total, field) => total + field.confidence, 0);
  return { kind: "document", type, fields, confidence: round(sum / names.length), missing };
}

/** Whether a reading is a document with every field found and checked. */
export function isComplete(reading: DocumentReading): boolean {
  return reading.kind === "document" && reading.missing.length === 0 &&
    Object.values(reading.fields).every((field) => field.valid);
}

/**
 * Two readings of one page (a second look after different preprocessing),
 * field by field: a value that passed its checks wins over one that did not
 * or was not found; otherwise the first look's. A page only the second look
 * could read is read by it.
 */
export function mergeReadings(first: DocumentReading, second: DocumentReading): DocumentReading {
  if (second.kind !== "document") return first;
  if (first.kind !== "document") return first.kind === "unreadable" ? second : first;
  if (first.type !== second.type) return first;
  const fields: Record<string, ReadField> = { ...first.fields };
  for (const [name, field] of Object.entries(second.fields)) {
    const mine = fields[name];
    if (!mine || (!mine.valid && field.valid)) fields[name] = field;
  }
  return documentReading(first.type, fields);
}

/** A word on the page, and the line OCR put it in. */
interface PlacedWord extends OcrWord {
  line: number;
}

/** A label found on the page: the field it names and the words it covers. */
interface LabelSpan {
  field: string;
  words: PlacedWord[];
  box: Box;
}

/**
 * The page's words with their boxes. A line without words (a vision model's
 * answer, a test's text) is laid out as text is printed: one row per line,
 * each token as wide as its characters, so one reading path serves both.
 */
function placed(lines: readonly OcrLine[]): PlacedWord[] {
  const words: PlacedWord[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.words?.length) {
      for (const word of line.words) {
        for (const piece of withoutLeaders(word)) words.push({ ...piece, line: index });
      }
      continue;
    }
    let offset = 0;
    for (const token of line.text.split(/(\s+)/)) {
      if (token.trim()) {
        words.push({
          text: token,
          confidence: line.confidence,
          box: {
            x0: offset * 10,
            y0: index * 30,
            x1: (offset + token.length) * 10,
            y1: index * 30 + 20,
          },
          line: index,
        });
      }
      offset += token.length;
    }
  }
  return words;
}

/** A run of dots, underscores or ellipses a form prints between a label and its value. */
const LEADER = /[.…·_]{3,}|_{2,}|…+/g;

/**
 * A word without the leaders a form types between a label and its value
 * ("Make..........", "____RAB"): OCR joins them to the label or the value, or
 * reads them as words of their own. A word a leader runs through
 * ("Make.....TOYOTA") is split in two, each piece with its share of the box.
 */
export function withoutLeaders(word: OcrWord): OcrWord[] {
  // Leaders OCR read as letters ("nnccco…eeoo") make a word longer than any value a card
  // prints in one piece (a VIN is 17, a name's part rarely 15): it is noise, not a value.
  if (word.text.replace(/[.…·_]/g, "").length > 24) return [];
  if (!LEADER.test(word.text)) return [word];
  LEADER.lastIndex = 0;
  const pieces: OcrWord[] = [];
  const width = word.box.x1 - word.box.x0;
  const chars = Math.max(1, word.text.length);
  let from = 0;
  const take = (start: number, end: number) => {
    const text = word.text.slice(start, end);
    if (!text.trim()) return;
    pieces.push({
      ...word,
      text,
      box: {
        ...word.box,
        x0: word.box.x0 + Math.round(width * start / chars),
        x1: word.box.x0 + Math.round(width * end / chars),
      },
    });
  };
  for (const match of word.text.matchAll(LEADER)) {
    take(from, match.index);
    from = match.index + match[0].length;
  }
  take(from, word.text.length);
  return pieces;
}

/** Words that join a label's parts or its value ("/", ":", "|", a table's rule). */
const SEPARATOR = /^[\/|:;\-–—_.,'"`]+$/;

/** Words that start or join a label in any of its languages without naming the field alone. */
const LABEL_FILLER =
  /^(?:itariki|date|n[o0°º]\.?|numbers?|num[ée]ro|n[io]mero|ya|y.|de|du|d.|of|the|la|le)$/i;

function union(boxes: Box[]): Box {
  return {
    x0: Math.min(...boxes.map((box) => box.x0)),
    y0: Math.min(...boxes.map((box) => box.y0)),
    x1: Math.max(...boxes.map((box) => box.x1)),
    y1: Math.max(...boxes.map((box) => box.y1)),
  };
}

const height = (box: Box) => Math.max(1, box.y1 - box.y0);
const middle = (box: Box) => (box.y0 + box.y1) / 2;

/**
 * Every label on the page. A label is matched on its OCR line's text and
 * mapped back to the words it covers; the parts of a label printed in two
 * or three languages ("Purake / Plaque / Plate No.") join into one span,
 * with the separators and filler words between and around them. Where two
 * fields' labels claim a word, the longer label keeps it.
 */
function labelSpans(words: PlacedWord[], rules: Record<string, FieldRule>): LabelSpan[] {
  const byLine = new Map<number, PlacedWord[]>();
  for (const word of words) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
  const spans: LabelSpan[] = [];
  for (const lineWords of byLine.values()) {
    lineWords.sort((a, b) => a.box.x0 - b.box.x0);
    let text = "";
    const starts: number[] = [];
    for (const word of lineWords) {
      if (text) text += " ";
      starts.push(text.length);
      text += asLabelWord(asLabelText(word.text));
    }
    const wordAt = (offset: number) => {
      let found = 0;
      for (let i = 0; i < starts.length; i++) if (starts[i] <= offset) found = i;
      return found;
    };
    const found: Array<{ field: string; from: number; to: number; chars: number }> = [];
    for (const [field, rule] of Object.entries(rules)) {
      const global = new RegExp(rule.label.source, rule.label.flags.replace("g", "") + "g");
      for (const match of text.matchAll(global)) {
        if (!match[0].trim()) continue;
        found.push({
          field,
          from: wordAt(match.index),
          to: wordAt(match.index + match[0].length - 1),
          chars: match[0].length,
        });
      }
    }
    // The longer label keeps a word two labels claim ("Owner ID" over "Owner").
    found.sort((a, b) => b.chars - a.chars);
    const owner = new Array<string | null>(lineWords.length).fill(null);
    for (const label of found) {
      let free = true;
      for (let i = label.from; i <= label.to; i++) {
        if (owner[i] && owner[i] !== label.field) free = false;
      }
      if (!free) continue;
      for (let i = label.from; i <= label.to; i++) owner[i] = label.field;
    }
    // Join a field's parts across separators and fillers, and take the fillers around them. A
    // part in a wording we do not know ("Noms / Full name") joins too when a "/" sets it apart.
    const isGlue = (i: number) =>
      owner[i] === null &&
      (SEPARATOR.test(lineWords[i].text) || LABEL_FILLER.test(lineWords[i].text));
    for (let i = 0; i < lineWords.length; i++) {
      if (owner[i] === null) continue;
      let j = i + 1;
      while (j < lineWords.length && owner[j] === owner[i]) j++;
      let k = j;
      while (k < lineWords.length && owner[k] === null && k - j < 5) k++;
      if (k >= lineWords.length || k === j || owner[k] !== owner[i]) continue;
      const between = lineWords.slice(j, k);
      const unknown = between.filter((_, m) => !isGlue(j + m)).length;
      // (The slash sets the unknown part apart only when it stands next to a label's part:
      // "Igitsina Gabo / M Sexe" holds a value in two languages between two labels.)
      const slashed = between.some((word) => /^[\/|]$/.test(word.text)) &&
        (isGlue(j) || isGlue(k - 1));
      // (A wording in lower case may be longer: "/ Surname and given names".)
      const labelLike = between.every((word, m) =>
        isGlue(j + m) || LOWER_CASE_WORD.test(word.text)
      );
      if (unknown === 0 || (slashed && (unknown <= 2 || (unknown <= 4 && labelLike)))) {
        for (let m = j; m < k; m++) owner[m] = owner[i];
      }
    }
    for (let i = 0; i < lineWords.length; i++) {
      const field = owner[i];
      if (field === null || (i > 0 && owner[i - 1] === field)) continue;
      // Only words set close to the label are its own: across a column's gap starts another.
      const close = (a: number, b: number) =>
        lineWords[b].box.x0 - lineWords[a].box.x1 < 1.5 * height(lineWords[i].box);
      let from = i;
      while (
        from > 0 && isGlue(from - 1) && !SEPARATOR.test(lineWords[from - 1].text) &&
        close(from - 1, from)
      ) from--;
      let to = i;
      while (to + 1 < lineWords.length && owner[to + 1] === field) to++;
      while (to + 1 < lineWords.length && isGlue(to + 1) && close(to, to + 1)) to++;
      const spanWords = lineWords.slice(from, to + 1);
      for (const word of spanWords) owner[lineWords.indexOf(word)] = field;
      spans.push({ field, words: spanWords, box: union(spanWords.map((word) => word.box)) });
    }
  }
  return joinWrapped(spans);
}

/**
 * A label too long for its cell wraps onto the next line ("Itariki yatangiweho / Date de" over
 * "délivrance / Date of issue"): a span of the same field just under another, overlapping it,
 * is the same label, and its value is under or right of both.
 */
function joinWrapped(spans: LabelSpan[]): LabelSpan[] {
  const out: LabelSpan[] = [];
  for (const span of [...spans].sort((a, b) => a.box.y0 - b.box.y0)) {
    // (Labels of fields nobody reads are all one pseudo-field: two on rows one under the other
    // are two labels.)
    const above = span.field !== OTHER_FIELD &&
      out.find((other) =>
        other.field === span.field && span.box.y0 >= other.box.y1 - height(other.box) * 0.3 &&
        span.box.y0 - other.box.y1 < height(other.box) * 0.8 &&
        span.box.x0 < other.box.x1 && span.box.x1 > other.box.x0
      );
    if (!above) {
      out.push(span);
      continue;
    }
    above.words = [...above.words, ...span.words];
    above.box = union([above.box, span.box]);
  }
  return out;
}

/** A word ending in a colon: a label, known or not. */
const UNKNOWN_LABEL = /^\p{L}[\p{L}.'’()]*:$/u;

/** A word with lower-case letters in it and no digit: a label's, not a value's. */
const LOWER_CASE_WORD = /^(?=.*\p{Ll}.*\p{Ll})[^\d]+$|^[\/|:&]$/u;

/** A word printed in lower case only: part of a label, never a value (values are in capitals or digits). */
const WRAPPED_LABEL = /^[a-zà-ÿ'’().°/-]+$/;

/** Candidate values of one label: the words right of it on its row, then the words under it. */
function valuesNear(
  span: LabelSpan,
  words: PlacedWord[],
  labelWords: Set<PlacedWord>,
  spans: LabelSpan[],
): PlacedWord[][] {
  const h = height(span.box);
  // On the label's row: its middle near the label's, or (a value printed larger, higher or
  // slanted: ink written over a printed line) overlapping the label over most of the smaller height.
  // (A label wrapped over two lines is as tall as two rows: only its middle counts.)
  const oneLine = span.words.every((word) => word.line === span.words[0].line);
  const sameRow = (box: Box, reach: number) =>
    Math.abs(middle(box) - middle(span.box)) <= reach ||
    (oneLine &&
      Math.min(box.y1, span.box.y1) - Math.max(box.y0, span.box.y0) >=
        0.6 * Math.min(height(box), h));
  // Right: the row's words after the label, up to the next label, in groups split by gaps wide
  // as a column's (a label's own words we do not know, then its value, or the next column).
  const right: PlacedWord[][] = [];
  const rightOf = words.filter((word) =>
    word.box.x0 >= span.box.x1 - h * 0.2 && !span.words.includes(word)
  );
  const onRow = rightOf.filter((word) => sameRow(word.box, h * 0.6));
  // A slanted value's later words drift from the label's row: they are on the row of the words
  // before them.
  const rowWords = [
    ...onRow,
    ...rightOf.filter((word) =>
      !onRow.includes(word) &&
      onRow.some((other) =>
        other.box.x0 < word.box.x0 && !SEPARATOR.test(other.text) &&
        Math.abs(middle(other.box) - middle(word.box)) <= 0.3 * height(other.box)
      )
    ),
  ].sort((a, b) => a.box.x0 - b.box.x0);
  for (const word of rowWords) {
    if (labelWords.has(word)) break;
    // A word ending in a colon is a label we do not know ("Seats:"): the value ends before it.
    if (right.length && UNKNOWN_LABEL.test(word.text)) break;
    const group = right.at(-1);
    const last = group?.at(-1);
    if (!last && SEPARATOR.test(word.text)) continue;
    // (A word space is as wide as the value's print makes it: a value in boxes, or set larger
    // than its label, spaces its words wider.)
    if (!group || !last || word.box.x0 - last.box.x1 > Math.max(h, height(last.box)) * 2.5) {
      right.push([word]);
    } else group.push(word);
  }
  // Below: the first row under the label (a word overlapping the label's own width), read
  // within its column, which ends where the next label on the label's row begins. A label found
  // first there means values sit right of their labels.
  const nextOnRow = spans.filter((other) =>
    other !== span && other.box.x0 > span.box.x1 && sameRow(other.box, h * 0.6)
  ).map((other) => other.box.x0);
  const end = nextOnRow.length ? Math.min(...nextOnRow) - h * 0.3 : Infinity;
  // The field starts where its row's words run up to the label without a column's gap (a
  // label's part in a wording we do not know: "Indangamuntu / Numéro national").
  let fieldStart = span.box.x0;
  const before = words.filter((word) =>
    word.box.x1 <= span.box.x0 + 1 && sameRow(word.box, h * 0.6)
  ).sort((a, b) => b.box.x1 - a.box.x1);
  // (A word's height, not the span's: a label wrapped over two lines is twice as tall.)
  const wordHeight = height(span.words[0].box);
  for (const word of before) {
    if (fieldStart - word.box.x1 > wordHeight * 1.5) break;
    fieldStart = word.box.x0;
  }
  // A value right of its label that its column was too narrow for wraps onto the next line
  // ("RBB 581" over "L", a national ID's last digits): that line, in the label's column, tight
  // under the value and starting with no label (a capital or a digit, not a word in lower
  // case), is the value's end.
  let wrapped: PlacedWord[] | null = null;
  // (Only a value set close after a one-line label: one far across the row is another column's.)
  // A value in a column of its own, across from its label (a table's value cell), wraps within
  // that column: the next line's words from the value's left edge, with its label column empty
  // (a word there is the next row's label).
  const across = oneLine && right.length > 0 && right[0][0].box.x0 - span.box.x1 > h * 2.5;
  if (oneLine && right.length && (right[0][0].box.x0 - span.box.x1 <= h * 2.5 || across)) {
    const value = right[0];
    const bottom = Math.max(span.box.y1, ...value.map((word) => word.box.y1));
    const from = across ? value[0].box.x0 - h : fieldStart - h;
    const below = words.filter((word) =>
      middle(word.box) > bottom && word.box.y0 - bottom < h * 0.8 && !value.includes(word) &&
      !span.words.includes(word)
    );
    const labelColumnTaken = across && below.some((word) => word.box.x1 < from);
    const next = labelColumnTaken
      ? []
      : below.filter((word) => word.box.x0 >= from && word.box.x0 < end).sort((a, b) =>
        a.box.x0 - b.box.x0
      );
    // Only the first line under the value: a line further down is another field's.
    const nearest = Math.min(...next.map((word) => middle(word.box)));
    const first = next.filter((word) =>
      Math.abs(middle(word.box) - nearest) <= 0.6 * height(word.box)
    );
    const start = first[0];
    if (
      start && !labelWords.has(start) && !LOWER_CASE_WORD.test(start.text) &&
      !UNKNOWN_LABEL.test(start.text) && !SEPARATOR.test(start.text)
    ) {
      const reach = height(start.box) * 0.6;
      const line: PlacedWord[] = [];
      for (const word of first) {
        if (Math.abs(middle(word.box) - middle(start.box)) > reach) continue;
        if (labelWords.has(word) || UNKNOWN_LABEL.test(word.text)) break;
        const last = line.at(-1);
        if (last && word.box.x0 - last.box.x1 > h * 2.5) break;
        line.push(word);
      }
      wrapped = [...value, ...line];
    }
  }
  const under = words.filter((word) =>
    middle(word.box) > span.box.y1 && word.box.y0 - span.box.y1 < h * 2.5 &&
    word.box.x0 < span.box.x1 && word.box.x1 > span.box.x0 - h && !SEPARATOR.test(word.text) &&
    !span.words.includes(word)
  ).sort((a, b) => middle(a.box) - middle(b.box));
  const rowFrom = (first: PlacedWord) => {
    const row = middle(first.box);
    const reach = height(first.box) * 0.6;
    const rowUnder = words.filter((word) =>
      Math.abs(middle(word.box) - row) <= reach &&
      word.box.x0 >= Math.min(first.box.x0, fieldStart - h * 2) && word.box.x0 < end
    ).sort((a, b) => a.box.x0 - b.box.x0);
    const taken: PlacedWord[] = [];
    for (const word of rowUnder) {
      if (labelWords.has(word)) break;
      if (taken.length && UNKNOWN_LABEL.test(word.text)) break;
      const last = taken.at(-1);
      if (last && word.box.x0 - last.box.x1 > Math.max(h, height(last.box)) * 2.5) break;
      if (!last && SEPARATOR.test(word.text)) continue;
      taken.push(word);
    }
    return { taken, bottom: row + reach };
  };
  const below: PlacedWord[][] = [];
  // Lower-case words right after a label on their row are that label's own ("Owner's | full
  // name" under the end of the row above): another field's, not this one's value.
  const continuesLabel = (word: PlacedWord | undefined) => {
    if (!word || !LOWER_CASE_WORD.test(word.text)) return false;
    const prior =
      words.filter((other) =>
        other.line === word.line && other.box.x1 <= word.box.x0 + 1 &&
        word.box.x0 - other.box.x1 < 1.5 * height(word.box)
      ).sort((a, b) => b.box.x1 - a.box.x1)[0];
    return Boolean(prior && labelWords.has(prior));
  };
  if (under.length && !labelWords.has(under[0])) {
    const first = rowFrom(under[0]);
    if (!continuesLabel(first.taken[0])) below.push(first.taken);
    // A label too long for its cell wraps ("Itariki y'amavuko / Date" over "of birth"): words
    // in lower case only are the label's own, and its value is on the row under them.
    if (first.taken.length && first.taken.every((word) => WRAPPED_LABEL.test(word.text))) {
      const next = under.find((word) => middle(word.box) > first.bottom);
      if (next && !labelWords.has(next)) below.push(rowFrom(next).taken);
    }
  }
  // Above: cards that print the value large over its small label ("NISSAN" over "Make"). The
  // row over the label is its value when it sits tighter to the label than the row under it
  // (which, on such a card, is the next field's value) and starts with no label.
  const above: PlacedWord[][] = [];
  const over = words.filter((word) =>
    middle(word.box) < span.box.y0 && span.box.y0 - word.box.y1 < h * 1.2 &&
    word.box.x0 < span.box.x1 && word.box.x1 > span.box.x0 - h && !SEPARATOR.test(word.text) &&
    !span.words.includes(word)
  ).sort((a, b) => middle(b.box) - middle(a.box));
  const gapUnder = under.length ? under[0].box.y0 - span.box.y1 : Infinity;
  // ...and tighter to this label than to a label over it in its column, whose value under it
  // it would otherwise be.
  const gapOver = over.length ? span.box.y0 - over[0].box.y1 : Infinity;
  const labelOver = over.length
    ? spans.filter((other) =>
      other !== span && other.box.y1 <= over[0].box.y0 + 1 &&
      other.box.x0 < over[0].box.x1 && other.box.x1 > over[0].box.x0
    ).map((other) => over[0].box.y0 - other.box.y1)
    : [];
  const gapToLabelOver = labelOver.length ? Math.min(...labelOver) : Infinity;
  if (
    over.length && !labelWords.has(over[0]) && gapOver < gapUnder * 0.7 &&
    gapOver < gapToLabelOver * 0.7
  ) {
    const row = rowFrom(over[0]).taken;
    if (row.length && !row.every((word) => LOWER_CASE_WORD.test(word.text))) above.push(row);
  }
  // Left: a value printed before its label on its row ("TOYOTA (Make)", "RAB 123 C — Plate"),
  // when nothing follows the label: the words just before it, back to a label or a column's gap.
  const left: PlacedWord[][] = [];
  // (Right of a label, words in small letters only are the rest of its wording we do not know,
  // "Ikirango cy'uruganda" at a row's far end: no value, so the value may stand before it.)
  const valueRight = right.some((group) => !group.every((word) => LOWER_CASE_WORD.test(word.text)));
  if (!valueRight && oneLine) {
    const run: PlacedWord[] = [];
    let edge = span.box.x0;
    for (const word of before) {
      // (A word ending in a colon is a label we do not know: "Year built: 2012 Owner ::".)
      if (labelWords.has(word) || UNKNOWN_LABEL.test(word.text)) break;
      if (edge - word.box.x1 > h * 2.5) break;
      edge = word.box.x0;
      if (SEPARATOR.test(word.text) && run.length === 0) continue;
      // The label's opening bracket ("GATETE EMMANUEL (Noms / Names)", read "|Nomsy Names)")
      // starts the label's wording, not the value.
      if (run.length === 0 && /^[(\[{|]\p{L}/u.test(word.text)) continue;
      // A long dash sets a value apart from its label ("NIYOMUGABO CLAUDINE — Nyirayo"): what
      // was gathered after it is the label's wording we do not know.
      if (/^[—–]+$/.test(word.text)) {
        run.length = 0;
        continue;
      }
      run.unshift(word);
    }
    // Only a value in capitals or digits: a label's own words we do not know are in lower case.
    if (run.length && !run.every((word) => LOWER_CASE_WORD.test(word.text))) left.push(run);
  }
  // Last: a label at its row's end whose value stands further left, across the label's own
  // words we do not know and a column's gap ("PRIVATE      Genre d'usage": the value between a
  // label in one language and this one in another), back to a label.
  const farLeft: PlacedWord[][] = [];
  if (!valueRight && oneLine && left.length === 0) {
    let index = 0;
    let edge = span.box.x0;
    while (
      index < before.length && !labelWords.has(before[index]) &&
      LOWER_CASE_WORD.test(before[index].text) && edge - before[index].box.x1 < h * 1.5
    ) edge = before[index++].box.x0;
    const run: PlacedWord[] = [];
    for (const word of before.slice(index)) {
      if (labelWords.has(word)) break;
      if (run.length && run[0].box.x0 - word.box.x1 > h * 2.5) break;
      if (SEPARATOR.test(word.text) && run.length === 0) continue;
      // (A long dash sets the value apart, as above.)
      if (/^[—–]+$/.test(word.text)) {
        run.length = 0;
        continue;
      }
      run.unshift(word);
    }
    if (run.length && !run.every((word) => LOWER_CASE_WORD.test(word.text))) farLeft.push(run);
  }
  // A label that ends its line with nothing after it (or a colon) has its value at the start of
  // the next line when a form's pairs run on like text ("… Owner's full name ::" then
  // "TUYISENGE INNOCENT"): the next line, tight under it, from its first word.
  // (Only a label that ends in its separator, as run-on pairs print it: under a table's last
  // header, the next line is the other columns' values.)
  const nextLine: PlacedWord[][] = [];
  const lineOf = span.words.at(-1)!.line;
  const after = words.filter((word) => word.line === lineOf && word.box.x0 > span.box.x1);
  const separated = /[:=]$/.test(span.words.at(-1)!.text) ||
    (after.length > 0 &&
      after.every((word) => SEPARATOR.test(word.text) || /^[=→~]+$/.test(word.text)));
  if (right.length === 0 && oneLine && separated) {
    const following = words.filter((word) =>
      middle(word.box) > span.box.y1 && word.box.y0 - span.box.y1 < h * 1.5 &&
      word.line !== lineOf
    );
    const line = following.length ? Math.min(...following.map((word) => word.line)) : -1;
    const row = words.filter((word) => word.line === line).sort((a, b) => a.box.x0 - b.box.x0);
    const taken: PlacedWord[] = [];
    for (const word of row) {
      if (labelWords.has(word) || UNKNOWN_LABEL.test(word.text)) break;
      const last = taken.at(-1);
      if (last && word.box.x0 - last.box.x1 > Math.max(h, height(last.box)) * 2.5) break;
      if (!last && SEPARATOR.test(word.text)) continue;
      taken.push(word);
    }
    if (taken.length && !taken.every((word) => LOWER_CASE_WORD.test(word.text))) {
      nextLine.push(taken);
    }
  }
  const candidates: PlacedWord[][] = [];
  const near = wrapped ? [right[0], wrapped, ...right.slice(1, 2)] : right.slice(0, 2);
  for (const candidate of [...near, ...above, ...left, ...below, ...farLeft, ...nextLine]) {
    const under = below.includes(candidate);
    // A label's words in a wording we do not know come before its value ("Ubwoko / Mode!
    // HLX125"): values are printed in capitals or digits, a label in lower case. Try the value
    // without them first.
    let from = 0;
    while (from < candidate.length && LOWER_CASE_WORD.test(candidate[from].text)) from++;
    // Lower-case words joined by a slash are a label in two languages: right of a label, its
    // own other wording; under it, another field's label ("Colour / Ibara"), whose row it is.
    // ("Gore / F" is a value in two languages: a slash then capitals.)
    const slashed = candidate.slice(0, from).some((word) => /^[\/|]$/.test(word.text)) &&
      !/^[\/|:]$/.test(candidate[from - 1].text);
    if (slashed && (under || from === candidate.length)) continue;
    if (from > 0 && from < candidate.length) candidates.push(candidate.slice(from));
    candidates.push(candidate);
  }
  // A candidate holding a word in lower case holds a label's words (a header row's other
  // wording, "Marque / Manufacturer", "Owner Kitambulisho / NIN"): values are printed in
  // capitals or digits, so every candidate without one is tried first, in the same order.
  const labelLike = (candidate: PlacedWord[]) =>
    candidate.some((word) => /\p{Ll}.*\p{Ll}/u.test(word.text) && !/\d/.test(word.text));
  return [
    ...candidates.filter((candidate) => candidate.length > 0 && !labelLike(candidate)),
    ...candidates.filter((candidate) => candidate.length > 0 && labelLike(candidate)),
  ];
}

/** How sure a checked value is: 2 passed as printed, 1 passed once repaired, 0 failed. */
function rank(checked: CheckedValue): number {
  return checked.valid ? (checked.repaired ? 1 : 2) : 0;
}

function textOf(words: PlacedWord[]): string {
  return words.map((word) => word.text).join(" ");
}

function meanConfidence(words: PlacedWord[]): number {
  return words.reduce((sum, word) => sum + word.confidence, 0) / Math.max(1, words.length);
}

/**
 * A field's code on a card that prints codes beside its values ("A.", "C.1", "D.3.", a numbered
 * form's "7." in its legend and "7:" before the value; OCR reads a dot as a comma now and then).
 */
const FIELD_CODE = /^(?:[A-Z]|\d{1,2}[a-d]?)(?:\.\d{1,2})*[.,:]?$/;

/**
 * Cards that print a code beside each value and the codes' meaning in a
 * legend elsewhere ("A. RAB 123 C … A. Registration number; C.1 Holder"), as
 * EU-style registration certificates do: each code right before a label
 * names that label's field, and where the same code stands anywhere else it
 * is that field's label. Taken only when the legend names three codes or
 * more (a lone "A." is no legend). The codes in the legend are label words
 * too: no value runs into them.
 */
function codedLabels(
  words: PlacedWord[],
  spans: LabelSpan[],
): {
  spans: LabelSpan[];
  codes: PlacedWord[];
  words: PlacedWord[];
  parts: Map<PlacedWord, PlacedWord[]>;
  /** The legend's own labels: they name a code, their value is beside the code elsewhere. */
  legend: Set<LabelSpan>;
} {
  // (OCR reads a table's or a box's edge before a code as "|": "|1".)
  const codeOf = (word: PlacedWord) => {
    const text = word.text.replace(/^[|\[(]/, "");
    return FIELD_CODE.test(text) ? text.replace(/[.,:]$/, "") : null;
  };
  const meaning = new Map<string, string>();
  const inLegend = new Set<PlacedWord>();
  const legend = new Set<LabelSpan>();
  const labelled = new Set(spans.flatMap((span) => span.words));
  // The word that may be a span's code: right before it on its line, or before the words of a
  // wording we do not know that run up to it ("1. (kirango / Brand", "2. Nom du titulaire").
  const codeWordOf = (span: LabelSpan): PlacedWord | undefined => {
    const first = span.words[0];
    const prior = words.filter((word) =>
      word.line === first.line && word.box.x1 <= first.box.x0 + 1
    )
      .sort((a, b) => b.box.x1 - a.box.x1);
    let edge = first.box.x0;
    for (const [index, word] of prior.entries()) {
      if (edge - word.box.x1 >= 1.5 * height(first.box) || index > 3) return undefined;
      if (codeOf(word)) return word;
      if (labelled.has(word)) return undefined;
      edge = word.box.x0;
    }
    if (prior.length) return undefined;
    // A legend run on over lines leaves a code at the end of one line and its label at the
    // start of the next: the last code-like word of the line just above (past OCR's debris).
    const above = words.filter((word) =>
      word.line !== first.line && word.box.y1 <= first.box.y0 + 0.3 * height(first.box) &&
      first.box.y0 - word.box.y1 < 1.5 * height(first.box)
    );
    return above.filter((word) => word.line === above.at(-1)?.line)
      .sort((a, b) => b.box.x1 - a.box.x1)
      .find((word) => /[\p{L}\p{N}]/u.test(word.text));
  };
  // A key printed as a footnote numbers its labels without dots ("2 Numero y'icyapa 3 Itariki
  // … 4 Uruganda"): three labels or more on one line, each after a number of its own, are a
  // legend too.
  const numberedOnLine = new Map<number, Set<string>>();
  for (const span of spans) {
    const first = span.words[0];
    // (The number right before the label, nothing between: a key, not a sentence's number.)
    const before = words.filter((word) =>
      word.line === first.line && word.box.x1 <= first.box.x0 + 1
    )
      .sort((a, b) => b.box.x1 - a.box.x1)[0];
    if (
      !before || !/^\d{1,2}$/.test(before.text) ||
      first.box.x0 - before.box.x1 >= 1.5 * height(first.box)
    ) continue;
    const line = span.words[0].line;
    numberedOnLine.set(line, (numberedOnLine.get(line) ?? new Set()).add(before.text));
  }
  const footnoteLine = (span: LabelSpan) =>
    (numberedOnLine.get(span.words[0].line)?.size ?? 0) >= 3;
  // Two passes: codes with their dot (or a letter) make a legend; once two such are seen, a
  // number whose dot OCR lost ("|1 Amazina", "3 Amazina") is a code of it too.
  for (const pass of [0, 1]) {
    if (pass === 1 && meaning.size < 2) break;
    for (const span of spans) {
      if (legend.has(span)) continue;
      const before = codeWordOf(span);
      const code = before && codeOf(before);
      // (A legend's number stands with its dot: "7:" is a value's code, "7" a value's digit.)
      const legendCode = code &&
        (pass === 1
          ? /^\d{1,2}$/.test(code) && !/:$/.test(before!.text)
          : /[.,]$|^[A-Z][.\d]*$/.test(before!.text) ||
            (footnoteLine(span) && /^\d{1,2}$/.test(before!.text)));
      if (!legendCode || meaning.has(code)) continue;
      meaning.set(code, span.field);
      inLegend.add(before!);
      legend.add(span);
    }
  }
  const parts = new Map<PlacedWord, PlacedWord[]>();
  if (meaning.size < 3) return { spans: [], codes: [], words, parts, legend: new Set() };
  // Every label on a legend's lines is the legend's, its code read or not: none has its value
  // beside it.
  const legendLines = new Set(
    [...inLegend].map((word) => word.line).filter((line, index, all) =>
      all.indexOf(line) !== index
    ),
  );
  for (const span of spans) if (legendLines.has(span.words[0].line)) legend.add(span);
  // OCR often drops the space after a code's dot ("3.11985", "9.B,C,D"): a word that starts
  // with a known code and its dot is the code, then the value, each with its share of the box.
  const known = [...meaning.keys()].sort((a, b) => b.length - a.length);
  const split = words.flatMap((word): PlacedWord[] => {
    if (inLegend.has(word) || meaning.has(codeOf(word) ?? "")) return [word];
    const code = known.find((code) =>
      word.text.startsWith(`${code}.`) || word.text.startsWith(`${code}:`)
    );
    const rest = code && word.text.slice(code.length + 1);
    if (!code || !rest || !/^[A-Z0-9]/.test(rest)) return [word];
    const cut = word.box.x0 +
      (word.box.x1 - word.box.x0) * (code.length + 1) / word.text.length;
    const halves = [
      { ...word, text: word.text.slice(0, code.length + 1), box: { ...word.box, x1: cut } },
      { ...word, text: rest, box: { ...word.box, x0: cut + 1 } },
    ];
    parts.set(word, halves);
    return halves;
  });
  // A code printed in a box beside its value reads with the box's edges and without its dot
  // ("[D1]", "[ C1]", "E |" for the legend's "D.1", "C.1", "E"): the same code once the edges
  // and dots are set aside.
  const bare = (code: string) => code.replace(/\./g, "").toUpperCase();
  const byBare = new Map([...meaning].map(([code, field]) => [bare(code), field]));
  // (The box's edge may be a word of its own: "D3 |", "[ C1".)
  const edgeNear = (word: PlacedWord, side: -1 | 1) =>
    split.some((other) =>
      other.line === word.line && /^[\[\]|()]$/.test(other.text) &&
      (side === 1
        ? other.box.x0 >= word.box.x1 - 1 && other.box.x0 - word.box.x1 < height(word.box)
        : other.box.x1 <= word.box.x0 + 1 && word.box.x0 - other.box.x1 < height(word.box))
    );
  const boxed = (word: PlacedWord) => {
    if (!/^[\[|(]|[\]|)]$/.test(word.text) && !edgeNear(word, 1) && !edgeNear(word, -1)) {
      return null;
    }
    const text = word.text.replace(/^[\[|(]+|[\]|)]+$/g, "").replace(/[.,:]$/, "");
    return /^(?:[A-Z]\d{0,2}|\d{1,2}[A-D]?)$/i.test(text) ? byBare.get(bare(text)) : undefined;
  };
  const coded: LabelSpan[] = [];
  for (const word of split) {
    const code = codeOf(word);
    const field = (code && meaning.get(code)) || (!inLegend.has(word) && boxed(word));
    // (A number alone is a value's part, a national ID's first digit: a code without a letter
    // is one only with its dot, or in its box.)
    if (!field || inLegend.has(word)) continue;
    if (!/[A-Z]|[.:]$/.test(word.text) && !boxed(word)) continue;
    // (A letter without its dot set close after a value's word is the value's end, a plate's
    // series letter "RB 943 B", not the code "B." of another field: a code opens its value.)
    const tight = split.some((other) =>
      other.line === word.line && other !== word && /[A-Z0-9]$/i.test(other.text) &&
      other.box.x1 <= word.box.x0 + 1 && word.box.x0 - other.box.x1 < height(word.box)
    );
    if (/^[A-Z]$/.test(word.text) && tight && !boxed(word)) continue;
    coded.push({ field, words: [word], box: word.box });
  }
  return { spans: coded, codes: [...inLegend], words: split, parts, legend };
}

/** The pseudo-field of {@link OTHER_RULE}'s labels (no field of any type is called so). */
const OTHER_FIELD = "(printed, not read)";

/**
 * Labels cards print for what no answer holds: a colour, an engine's size or number, seats,
 * weights, a blood group, a height, a serial. Their values have the shapes of wanted ones
 * ("1500 cc" a year's digits, "WHITE" a model's word), so a value found next to them is
 * theirs.
 */
const OTHER_RULE: FieldRule = {
  label:
    /\bcolou?r\b|\bcouleur\b|\bibara\b|engine\s+(?:n[o0°º]\.?|number|capacity)|\bcylindr[ée]e\b|ingufu\s+za\s+moteri|\bseats?\b|\bplaces\s+assises\b|\bweight\b|\bpoids\b|\bblood\s+group\b|groupe\s+sanguin|ubwoko\s+bw.amaraso|\bheight\b|\btaille\b|\buburebure\b|\bserial\b|umubare\s+w.intebe|\baddress\b|\badresse\b|aho\s+atuye|\bsignature\b|\bumukono\b/i,
  read: () => null,
};

/**
 * Each field's value: by its label's position first (a value that passes
 * its check wins over one that does not), then by its shape anywhere on the
 * page. A word is the value of one field only.
 */
function findFields(
  words: PlacedWord[],
  rules: Record<string, FieldRule>,
  today: Date,
  validate: boolean,
  used = new Set<PlacedWord>(),
  /** Filled with the words found to be labels (of any field, wanted or not). */
  labels = new Set<PlacedWord>(),
): Record<string, ReadField> {
  // Labels of fields no answer holds are labels too: their words are never a value, and a value
  // run stops at them and a column ends where they start.
  const named = labelSpans(words, { ...rules, [OTHER_FIELD]: OTHER_RULE });
  const legend = codedLabels(words, named);
  words = legend.words;
  // A legend's labels name codes; the values stand beside the codes, not beside the legend.
  const spans = [...named.filter((span) => !legend.legend.has(span)), ...legend.spans];
  const labelWords = new Set([
    ...named.flatMap((span) => span.words),
    ...legend.spans.flatMap((span) => span.words),
    ...legend.codes,
  ]);
  for (const word of labelWords) {
    used.add(word);
    labels.add(word);
  }
  const fields: Record<string, ReadField> = {};
  for (const [field, rule] of Object.entries(rules)) {
    let best: { read: ReadField; words: PlacedWord[]; rank: number } | null = null;
    for (const span of spans.filter((span) => span.field === field)) {
      for (const candidate of valuesNear(span, words, labelWords, spans)) {
        const free = candidate.filter((word) => !used.has(word));
        if (free.length === 0) continue;
        const text = textOf(free);
        if (!validate) {
          best ??= {
            read: {
              value: text.replace(/\s+/g, " ").trim(),
              confidence: round(meanConfidence(free) / 100),
              valid: true,
            },
            words: free,
            rank: 2,
          };
          continue;
        }
        const checked = rule.read(text, today);
        if (!checked) continue;
        // A value that passed its check as printed is surer than one that passed only once
        // OCR's confusions were repaired (a wrapped plate's first line reads as a repaired
        // motorcycle plate): look on for one, keep the repaired one if none comes.
        if (!best || rank(checked) > best.rank) {
          best = { read: scored(checked, meanConfidence(free)), words: free, rank: rank(checked) };
        }
        if (best.rank === 2) break;
      }
      if (best?.rank === 2) break;
    }
    if (best) {
      fields[field] = best.read;
      for (const word of valueWords(best.words, best.read.value)) used.add(word);
    }
  }
  // What a label of a field no answer holds has next to it is its value: no shape below takes
  // it for a wanted one ("WHITE" beside "Colour" is no model).
  for (const span of spans.filter((span) => span.field === OTHER_FIELD)) {
    const taken = valuesNear(span, words, labelWords, spans)
      .map((candidate) => candidate.filter((word) => !used.has(word)))
      .find((candidate) => candidate.length > 0);
    for (const word of taken ?? []) used.add(word);
  }
  // A word split at its code is the page's word to the shapes read after this: taken when a
  // part of it was.
  for (const [word, halves] of legend.parts) {
    if (halves.some((half) => used.has(half))) used.add(word);
  }
  // Only then by shape, among the words no label claimed: a licence's 16-digit number has a
  // national ID's shape, and is the licence number when its label says so.
  for (const [field, rule] of Object.entries(rules)) {
    if (fields[field] || !validate || !rule.anywhere) continue;
    const found = findAnywhere(words, rule, used, today);
    if (!found) continue;
    fields[field] = found.read;
    for (const word of found.words) used.add(word);
  }
  return fields;
}

/**
 * The words a value was read from. A one-piece value (a VIN, an ID or licence number, a year)
 * read from the start of a run that went on across a column's narrow gap ("KNAJD2ZG8EX655586
 * KIA" in a table's value row) leaves the words after it free for other fields.
 */
export function valueWords<T extends OcrWord>(words: T[], value: string): T[] {
  if (/\s|-/.test(value) || value.length < 4) return words;
  const wanted = value.replace(/[^A-Za-z0-9]/g, "").length;
  let read = 0;
  const out: T[] = [];
  for (const word of words) {
    if (read >= wanted) break;
    out.push(word);
    read += word.text.replace(/[^A-Za-z0-9]/g, "").length;
  }
  return out;
}

/** A value of the field's shape anywhere on the page, with its label unread: a little less sure. */
function findAnywhere(
  words: PlacedWord[],
  rule: FieldRule,
  used: Set<PlacedWord>,
  today: Date,
): { read: ReadField; words: PlacedWord[] } | null {
  const lines = new Map<number, PlacedWord[]>();
  for (const word of words) {
    if (!used.has(word)) lines.set(word.line, [...(lines.get(word.line) ?? []), word]);
  }
  for (const lineWords of lines.values()) {
    lineWords.sort((a, b) => a.box.x0 - b.box.x0);
    const shape = rule.anywhere!.exec(textOf(lineWords).toUpperCase());
    if (!shape) continue;
    const checked = rule.read(shape[0], today);
    if (
      !checked ||
      (!checked.valid && !(rule.anywhereRepaired && checked.note?.includes("corrected")))
    ) {
      continue;
    }
    const covered = wordsCovering(lineWords, shape.index, shape.index + shape[0].length);
    return { read: scored(checked, meanConfidence(covered) * 0.9), words: covered };
  }
  return null;
}

/** The words of a line (in order, joined by single spaces) that characters `from`…`to` fall in. */
function wordsCovering(lineWords: PlacedWord[], from: number, to: number): PlacedWord[] {
  const out: PlacedWord[] = [];
  let at = 0;
  for (const word of lineWords) {
    const end = at + word.text.length;
    if (end > from && at < to) out.push(word);
    at = end + 1;
  }
  return out;
}

/** A colour a card prints (its label may be lost): never a model. */
const COLOURS =
  /^(?:WHITE|BLACK|SILVER|GREY|GRAY|RED|BLUE|GREEN|YELLOW|ORANGE|BROWN|BEIGE|GOLD|MAROON|BLANC|NOIR|GRIS|ROUGE|BLEU|VERT|JAUNE|ARGENT|UMWEPU|UMUKARA|UMUTUKU|NYEUPE|NYEUSI|NYEKUNDU)$/;

/** A word that is a vehicle's use by itself, in any of the card's languages. */
const USAGE_WORD =
  /^(?:PRIVATE|PRIV[EÉ]|BWITE|PARTICULIER|BINAFSI|COMMERCIAL|UBUCURUZI|UTILITAIRE|BIASHARA|TAXI|TAGISI|TEKSI|TAXI-MOTO|MOTO-TAXI|BODABODA|GOVERNMENT|LETA)$/i;

/** A word in capitals, as names and values are printed. */
const CAPITALS = /^[A-ZÀ-Ý][A-ZÀ-Ý'’-]{2,}$/;
/** A word with its capital only ("Eric", "Théogène"): a given name, or a label's word. */
const TITLE_CASE = /^\p{Lu}[\p{Ll}'’-]{2,}$/u;
/** Words of a document's title or issuer: never a person's name. */
const DOCUMENT_WORD =
  /^(?:REGISTRATION|CERTIFICATE|CERTIFICAT|BOOK|LICEN[CS]E|DRIVING|PERMIS|IDENTITY|IDENTIT[ÉE]|CARD|CARTE|NATIONAL[E]?|REPUBLIC|REPUBULIKA|RWANDA|VEHICLE|POLICE|S[ÉE]RIE)$/i;

/**
 * The lines of a page's title: a line holding the type's title words, and the lines set tight
 * over or under it in the same print, capitals and no digit (a title in two languages on two
 * lines: "ICYANGOMBWA CY'IKINYABIZIGA" over "CERTIFICATE OF REGISTRATION"). None holds a value.
 */
function titleRows(
  words: readonly PlacedWord[],
  titles: readonly RegExp[],
  used: ReadonlySet<PlacedWord>,
): Set<number> {
  const rows = new Map<number, PlacedWord[]>();
  for (const word of words) rows.set(word.line, [...(rows.get(word.line) ?? []), word]);
  const box = (row: PlacedWord[]) => union(row.map((word) => word.box));
  const print = (row: PlacedWord[]) =>
    [...row.map((word) => height(word.box))].sort((a, b) => a - b)[row.length >> 1];
  const found = new Set<number>();
  const titleLike = (row: PlacedWord[]) =>
    row.every((word) => /^[\p{Lu}'’\-\/&]+$/u.test(word.text)) &&
    row.some((word) => /\p{Lu}{3,}/u.test(word.text));
  for (const [line, row] of rows) {
    // A line of capitals naming the document ("MOTOR VEHICLE REGISTRATION", its end cut off) is
    // a title whichever its wording.
    if (titleLike(row) && row.some((word) => DOCUMENT_WORD.test(word.text))) {
      found.add(line);
      continue;
    }
    // (Its words no label took: "chassis" names a VIN on a line of prose, a title's word only
    // when no label claims it.)
    const text = textOf(row.filter((word) => !used.has(word)).sort((a, b) => a.box.x0 - b.box.x0));
    // A title's words in small letters on a line that holds a date are a label we do not know
    // and its value ("Date de 1re immatriculation  1 avr. 2022"), not a title. (A title in
    // capitals stays one: a booklet's spread puts the other page's values on its line.)
    const dated = DATE_SHAPES.some((shape) => new RegExp(shape.source).test(text.toUpperCase()));
    const title = titles.map((one) => one.exec(text)).find((match) => match);
    if (title && !(dated && /\p{Ll}/u.test(title[0]))) found.add(line);
  }
  // Grown one line at a time from the lines found, each next to a title line.
  for (let grown = true; grown;) {
    grown = false;
    for (const [line, row] of rows) {
      if (found.has(line) || !titleLike(row)) continue;
      const here = box(row);
      const next = [...found].some((other) => {
        const title = rows.get(other)!;
        const there = box(title);
        const gap = Math.max(here.y0 - there.y1, there.y0 - here.y1);
        const ratio = print(row) / print(title);
        return gap <= 0.6 * print(title) && gap > -0.3 * print(title) && ratio > 0.8 &&
          ratio < 1.25 && here.x0 < there.x1 && here.x1 > there.x0;
      });
      if (next) {
        found.add(line);
        grown = true;
      }
    }
  }
  return found;
}

/** The dates a type carries, in the order they happen. */
const DATE_ORDER: Record<DocumentType, string[]> = {
  vehicle_registration: ["issue_date", "expiry_date"],
  license: ["date_of_birth", "issue_date", "expiry_date"],
  id_card: ["date_of_birth", "issue_date"],
  policy: ["start_date", "end_date"],
};

/** A word without the punctuation prose and lists put around it ("2015,", "(PRIVATE)"). */
// (A footnote's mark glued to a value, read as a sign: "KIA*", "2013°", "TAXI¹", "SILVER®".)
const bare = (word: OcrWord) => word.text.replace(/^[("'“]+|[),.;:'"”*°†‡®?!¹²³⁴⁵⁶⁷⁸⁹⁰]+$/g, "");

const DATE_SHAPES = [
  /\b[0-9OIS]{1,2}\s?[\/\-.]\s?[0-9OIS]{1,2}\s?[\/\-.]\s?[0-9OIS]{4}\b/g,
  /\b[0-9OIS]{4}\s?[\/\-.]\s?[0-9OIS]{1,2}\s?[\/\-.]\s?[0-9OIS]{1,2}\b/g,
  // (A day's 7 read as T before a month's name: "OT JUL. 2022".)
  /\b[0-9OIST]{1,2}(?:ST|ND|RD|TH)?\s?[\-.\/ ]\s?[A-ZÉÛ]{3,11}\.?\s?[\-.\/ ]\s?[0-9OIS]{4}\b/g,
  /\b[A-Z]{3,9}\.?\s[0-9OIS]{1,2},?\s[0-9OIS]{4}\b/g,
  // A two-digit year: "12.01.27".
  /\b[0-9OIS]{1,2}\s?([\/\-.])\s?[0-9OIS]{1,2}\s?\1\s?[0-9OIS]{2}\b(?![\/\-.]\d)/g,
  // A month in Roman numerals, OCR's 1 and | for its I: "12.IV.2019", "04.1X.1990".
  /\b[0-9OIS]{1,2}\s?[.\-\/]\s?[IVX1|]{1,4}\s?[.\-\/]\s?[0-9OIS]{4}\b/g,
];

/**
 * Fields whose labels OCR lost (small labels are the first thing blur,
 * glare and low resolution erase; the large values survive), found among the
 * words no label claimed by what they are: dates by their order in a
 * document's life (born, then issued, then expiring; issued before today) when
 * exactly one way to place them fits; a year of manufacture standing alone; a
 * make by its name; a vehicle's use by its words; a sex printed alone; a name
 * as the one run of two to four words of capital letters. Each is a little
 * less sure than a value found beside its label, and is never taken when two
 * readings fit.
 */
function byShape(
  type: DocumentType,
  words: PlacedWord[],
  used: Set<PlacedWord>,
  fields: Record<string, ReadField>,
  today: Date,
  wanted: Set<string>,
  options: { labels?: Set<PlacedWord> } = {},
): void {
  const titles = LAYOUTS[type].title;
  const labelWords = options.labels ?? new Set<PlacedWord>();
  // A header row: a line of labels (some we know, the rest in lower case), no value on it. A
  // word of capitals there is a label we do not know ("CNI" between "Type" and "Usage"), not a
  // value.
  // A row of captions: two or more words, each two or three capitals ("OWN  MK  MDL", "NID  PL
  // DRG"), abbreviated labels we do not know above a row of values. None is a value.
  const onCaptionRow = (word: PlacedWord) => {
    const row = words.filter((other) => other.line === word.line);
    // (OCR reads a caption's capital small now and then: "NiD Mr MDL", "vin YR EXP".)
    return row.length >= 2 && row.every((other) => /^[A-Za-z]{2,3}\.?$/.test(other.text)) &&
      row.some((other) => /^[A-Z]{2,3}\.?$/.test(other.text));
  };
  const onHeaderRow = (word: PlacedWord) => {
    const others = words.filter((other) => other.line === word.line && other !== word);
    return others.some((other) => labelWords.has(other)) &&
      others.every((other) => labelWords.has(other) || LOWER_CASE_WORD.test(other.text));
  };
  const lines = new Map<number, PlacedWord[]>();
  for (const word of words) {
    if (!used.has(word)) lines.set(word.line, [...(lines.get(word.line) ?? []), word]);
  }
  const titleLines = titleRows(words, titles, used);
  // Segments: a line's free words, split where a column's gap separates them.
  const segments: PlacedWord[][] = [];
  for (const [lineIndex, lineWords] of lines) {
    lineWords.sort((a, b) => a.box.x0 - b.box.x0);
    // A title or the country's name ("REPUBLIC" holds "PUBLIC") is no field's value.
    const line = textOf(lineWords);
    if (titleLines.has(lineIndex) || COUNTRY.test(line)) continue;
    let current: PlacedWord[] = [];
    for (const word of lineWords) {
      const last = current.at(-1);
      if (last && word.box.x0 - last.box.x1 > 2.5 * height(last.box)) {
        segments.push(current);
        current = [];
      }
      current.push(word);
    }
    if (current.length) segments.push(current);
  }
  const take = (field: string, checked: CheckedValue, taken: PlacedWord[]) => {
    fields[field] = scored(checked, meanConfidence(taken) * 0.85);
    for (const word of taken) used.add(word);
  };
  const free = (segment: PlacedWord[]) => segment.filter((word) => !used.has(word));
  // Dates.
  const order = DATE_ORDER[type].filter((field) => wanted.has(field));
  const dates: Array<{ value: string; words: PlacedWord[]; checked: CheckedValue }> = [];
  for (const segment of segments) {
    const text = textOf(segment).toUpperCase();
    for (const shape of DATE_SHAPES) {
      for (const match of text.matchAll(shape)) {
        const checked = readDate(match[0]);
        if (!checked?.valid) continue;
        const covered = wordsCovering(segment, match.index, match.index + match[0].length);
        if (dates.some((date) => date.words.some((word) => covered.includes(word)))) continue;
        dates.push({ value: checked.value, words: covered, checked });
      }
    }
  }
  const missing = order.filter((field) => !fields[field]);
  if (missing.length && dates.length) {
    const todayIso = today.toISOString().slice(0, 10);
    const adult = `${today.getUTCFullYear() - 16}${todayIso.slice(4)}`;
    const fits = (field: string, value: string) =>
      field === "date_of_birth"
        ? value <= adult
        : /issue|start/.test(field)
        ? value <= todayIso
        : true;
    // Every way to give each missing date one of the free dates (or none) that keeps the
    // document's dates in order; the ways that place most dates, if they agree, are taken.
    let best: Array<Record<string, number>> = [];
    let bestCount = 0;
    const walk = (index: number, chosen: Record<string, number>) => {
      if (index === missing.length) {
        const placedValues = order.map((field) =>
          field in chosen ? dates[chosen[field]].value : fields[field]?.value
        ).filter((value): value is string => Boolean(value));
        if (placedValues.some((value, i) => i > 0 && value <= placedValues[i - 1])) return;
        // More dates placed is better; a document still valid is likelier than one expired,
        // so a lone past date is its issue, not its expiry.
        const expired = Object.entries(chosen).filter(([field, d]) =>
          /expiry|end/.test(field) && dates[d].value <= todayIso
        ).length;
        const count = Object.keys(chosen).length * 2 - expired;
        if (count > bestCount) {
          [best, bestCount] = [[{ ...chosen }], count];
        } else if (count === bestCount && count > 0) {
          best.push({ ...chosen });
        }
        return;
      }
      walk(index + 1, chosen);
      const field = missing[index];
      for (let d = 0; d < dates.length; d++) {
        if (Object.values(chosen).includes(d) || !fits(field, dates[d].value)) continue;
        walk(index + 1, { ...chosen, [field]: d });
      }
    };
    walk(0, {});
    for (const field of missing) {
      const values = new Set(best.map((way) => way[field]));
      if (best.length && values.size === 1 && best[0][field] !== undefined) {
        const date = dates[best[0][field]];
        take(field, date.checked, date.words);
      }
    }
  }
  const tokens = segments.flatMap(free).filter((word) => !used.has(word));
  const unique = <T>(items: T[]): T | null => (items.length === 1 ? items[0] : null);
  if (wanted.has("year") && !fields.year) {
    const year = unique(tokens.filter((word) => {
      const checked = /^(?:19|20)\d\d$/.test(bare(word)) ? readYear(bare(word), today) : null;
      return checked?.valid;
    }));
    if (year) take("year", readYear(bare(year), today)!, [year]);
  }
  // A make read beside its label that is no make we know (a serial number before the label, the
  // next column's label "Nom") gives way to the one make we know left on the page.
  const knownMake = (value: string) => VEHICLE_MAKES.has(value.split(/[\s]/)[0]);
  if (wanted.has("make") && fields.make && !knownMake(fields.make.value)) {
    const make = unique(tokens.filter((word) => VEHICLE_MAKES.has(bare(word).toUpperCase())));
    if (make) take("make", { value: bare(make).toUpperCase(), valid: true }, [make]);
  }
  if (wanted.has("make") && !fields.make) {
    const make = unique(tokens.filter((word) => VEHICLE_MAKES.has(bare(word).toUpperCase())));
    // (Else one a letter away from a make we know: "BAJA]", "T0YOTA".)
    const near = make ? null : unique(tokens.filter((word) => readMake(word.text)?.note));
    if (make) take("make", { value: bare(make).toUpperCase(), valid: true }, [make]);
    else if (near) take("make", readMake(near.text)!, [near]);
  }
  if (wanted.has("usage") && !fields.usage) {
    const usage = unique(tokens.filter((word) => {
      const checked = USAGE_WORD.test(bare(word)) ? readUsage(bare(word)) : null;
      return checked?.valid;
    }));
    if (usage) {
      // Read with the word beside it on its segment: a use in two words ("MOTO TAGISI",
      // "MOTORCYCLE TAXI") is another use than its last word alone.
      const segment = segments.find((one) => one.includes(usage)) ?? [usage];
      const at = segment.indexOf(usage);
      const pairs = [segment.slice(Math.max(0, at - 1), at + 1), segment.slice(at, at + 2)]
        .filter((pair) => pair.length === 2 && pair.every((word) => !used.has(word)));
      const wider = pairs.map((pair) => ({
        pair,
        read: readUsage(textOf(pair.map((word) => ({ ...word, text: bare(word) })))),
      }))
        .find((one) => one.read?.valid && one.read.value !== readUsage(bare(usage))!.value);
      if (wider) take("usage", wider.read!, wider.pair);
      else take("usage", readUsage(bare(usage))!, [usage]);
    }
  }
  // A licence's classes printed as a list of two or more category letters ("B, C, D", "B,c"):
  // no other field prints that shape.
  if (wanted.has("categories") && !fields.categories) {
    const lists = segments.map(free).map((segment) => {
      const text = textOf(segment).toUpperCase().replace(/^[^A-Z]+/, "");
      return /^[A-F]1?E?(?:\s*[,;]\s*[A-F]1?E?)+$/.test(text) ? { text, segment } : null;
    }).filter((list) => list !== null);
    const list = unique(lists);
    if (list) {
      const text = list.text.split(/\s*[,;]\s*/).join(", ");
      take("categories", { value: text, valid: true }, list.segment);
    }
  }
  // Classes run together when OCR lost their spaces ("BCD", "AB"): two or more distinct letters
  // A–E in the alphabet's order, one such word alone on the licence.
  if (wanted.has("categories") && !fields.categories) {
    const run = unique(tokens.filter((word) => {
      const text = bare(word);
      return /^[A-E]{2,5}$/.test(text) &&
        [...text].every((letter, index) => index === 0 || letter > text[index - 1]);
    }));
    if (run) take("categories", { value: [...bare(run)].join(", "), valid: true }, [run]);
  }
  // A licence whose number has a national ID's shape (the newer cards') prints two such numbers.
  // With the holder's ID read, the other one, alone on the card, is the licence's number; kept
  // doubtful, since without its label which is which is only a guess for the customer to confirm.
  if (wanted.has("licence_number") && !fields.licence_number && fields.national_id) {
    const others = segments.flatMap((segment) => {
      const words = free(segment);
      const text = textOf(words).toUpperCase();
      return [...text.matchAll(new RegExp(NATIONAL_ID_SHAPE.source, "g"))].flatMap((match) => {
        const checked = readNationalId(match[0], today);
        return checked && checked.value !== fields.national_id.value
          ? [{ checked, words: wordsCovering(words, match.index, match.index + match[0].length) }]
          : [];
      });
    });
    const other = unique(others);
    if (other) {
      take("licence_number", {
        value: other.checked.value,
        valid: false,
        note: "read without its label beside the holder's ID: check which number is the licence's",
      }, other.words);
    }
  }
  // A place of issue printed without a readable label: the one district's name left on the card.
  if (wanted.has("place_of_issue") && !fields.place_of_issue) {
    const place = unique(tokens.filter((word) =>
      (RWANDA_DISTRICTS as readonly string[]).includes(
        bare(word).toUpperCase().normalize("NFD").replace(/[\u0300-\u036f]/g, ""),
      )
    ));
    if (place) take("place_of_issue", readPlace(bare(place))!, [place]);
  }
  if (wanted.has("sex") && !fields.sex) {
    // A sex printed alone, as a word ("FEMALE", "MASCULIN", "GORE") or else a letter (a lone M
    // may be a symbol OCR read as one: the word is surer).
    const sex = unique(tokens.filter((word) =>
      /^(?:GABO|GORE|FEMALE|MALE|F[EÉ]MININ|MASCULIN)$/i.test(bare(word))
    )) ?? unique(tokens.filter((word) =>
      /^[MF]$/i.test(bare(word))
    ));
    if (sex) {
      take("sex", readSex(bare(sex))!, [sex]);
    }
  }
  const nameField = wanted.has("owner_name")
    ? "owner_name"
    : wanted.has("full_name")
    ? "full_name"
    : null;
  // (A name read beside its label that failed its check, a label's word taken for it, gives way
  // to one found by what it is.)
  if (nameField && !fields[nameField]?.valid) {
    const runs: PlacedWord[][] = [];
    for (const segment of segments) {
      let run: PlacedWord[] = [];
      for (const word of [...free(segment), null]) {
        // A name's words have three letters or more: OCR's debris of a label has fewer.
        // (Without the comma or stop prose puts after a word: "registered to MUGISHA ERIC,".)
        // A given name may be printed in small letters after its capital ("RWIGEMA, Eric",
        // "Clarisse NIYONSENGA"): makes, models, uses and places never are.
        const nameLike = word && (CAPITALS.test(bare(word)) || TITLE_CASE.test(bare(word))) &&
          !labelWords.has(word) && !VEHICLE_MAKES.has(bare(word).toUpperCase()) &&
          !readUsage(bare(word))?.valid && !DOCUMENT_WORD.test(bare(word));
        // (A comma ends a name written given name first: "… Eric, GASABO".)
        if (nameLike) run.push(word!);
        if (!nameLike || /,$/.test(word!.text) && run.length >= 2) {
          const capitals = run.filter((one) => CAPITALS.test(bare(one))).length;
          // One word of capitals at least, and at most two in small letters (a label's words
          // in a wording we do not know are all in small letters).
          if (
            run.length >= 2 && run.length <= 4 && capitals >= 1 && run.length - capitals <= 2
          ) runs.push(run);
          run = [];
        }
      }
    }
    // A card that prints its holder's name without a label prints it large: among several
    // runs, the one alone in type half as tall again as the page's print is the name.
    const heights = words.map((word) => height(word.box)).sort((a, b) => a - b);
    const print = heights[Math.floor(heights.length / 2)] ?? 0;
    const tall = (run: PlacedWord[]) =>
      Math.min(...run.map((word) => height(word.box))) >= 1.5 * print;
    // A run that mixes capitals with a given name in small letters is a name by its print
    // alone; among runs of capitals only, the one alone on the page.
    const mixed = runs.filter((run) => run.some((word) => TITLE_CASE.test(bare(word))));
    const capitalsOnly = runs.filter((run) => !mixed.includes(run));
    // (Both found: the one OCR read surer, a legend's debris "Hare: DLL. Isang" is read poorly.)
    const sure = [unique(mixed), unique(capitalsOnly)].filter((run) => run !== null)
      .sort((a, b) => meanConfidence(b) - meanConfidence(a))[0];
    const name = sure ?? unique(capitalsOnly.filter(tall));
    if (name) take(nameField, readName(textOf(name))!, name);
  }
  // A model is the one word of capitals (and digits) left once every other field claimed its
  // words, on a card whose make is read: a name, a date or a number would have been claimed.
  if (wanted.has("model") && !fields.model && fields.make) {
    // A model's digits are few (C200, HLX125): a word with five or more is an engine or serial
    // number printed beside it.
    // Nor is a word right after a label we do not know ("Colour / Ibara: WHITE"): it is that
    // label's value.
    const afterUnknownLabel = (word: PlacedWord) => {
      const before = words.filter((other) =>
        other.line === word.line && other.box.x1 <= word.box.x0 + 1
      ).sort((a, b) =>
        b.box.x1 - a.box.x1
      )[0];
      return Boolean(before && /\p{L}[^:]*:$/u.test(before.text) && !used.has(before));
    };
    // Nor a label's other wording after a slash ("Ubw. / Mdl", "Ind. Nyir. / NID"): the words
    // before the slash are a label's, in small letters.
    const slashedWording = (word: PlacedWord) => {
      const before = words.filter((other) =>
        other.line === word.line && other.box.x1 <= word.box.x0 + 1 &&
        word.box.x0 - other.box.x1 < 1.5 * height(word.box)
      ).sort((a, b) => b.box.x1 - a.box.x1);
      return before.length >= 2 && /^[\/|]$/.test(before[0].text) &&
        LOWER_CASE_WORD.test(before[1].text);
    };
    const left = segments.flatMap(free).filter((word) =>
      !used.has(word) && /^[A-Z][A-Z0-9-]{2,11}$/.test(bare(word)) && !slashedWording(word) &&
      !USAGE_WORD.test(bare(word)) && !/\d{5}/.test(word.text) && !afterUnknownLabel(word) &&
      !onHeaderRow(word) && !COLOURS.test(bare(word)) && !onCaptionRow(word) &&
      !DOCUMENT_WORD.test(bare(word))
    );
    // A model that mixes letters and digits (HLX125, C200) is surer than a stray word.
    const model = unique(left.filter((word) => /\d/.test(word.text))) ?? unique(left);
    if (model) take("model", { value: bare(model), valid: true }, [model]);
    else {
      // Several words left: a card prints the model right after the make, in the next cell of
      // its row or the first value after it (under it, or at the next row's start). Only that
      // word is taken, doubtful, and only close to the make; a word before the make, or rows
      // away, is another field's.
      const next = nextAfter(words, fields.make, left);
      if (next) {
        take("model", {
          value: bare(next),
          valid: false,
          note: "read beside the make, without its label: check it",
        }, [next]);
      }
    }
  }
}

/**
 * Among `candidates`, the first word after a field's value in reading order: on the value's row
 * to its right, else on the first row under it that holds a candidate, its leftmost one, within
 * six of the value's heights. Null when the value's first word is not on the page once.
 */
function nextAfter(
  words: readonly PlacedWord[],
  after: ReadField,
  candidates: readonly PlacedWord[],
): PlacedWord | null {
  const first = after.value.split(/[\s-]/)[0];
  const own = words.filter((word) =>
    !candidates.includes(word) && bare(word).toUpperCase().replace(/[)\]]$/, "J") === first
  );
  // (Printed twice, in a legend or a header: which one the model follows is not known.)
  if (own.length !== 1) return null;
  const box = own[0].box;
  const h = height(box);
  const sameRow = candidates.filter((word) =>
    Math.abs(middle(word.box) - middle(box)) < 0.6 * h && word.box.x0 >= box.x1
  ).sort((a, b) => a.box.x0 - b.box.x0);
  if (sameRow.length) return sameRow[0];
  const below = candidates.filter((word) =>
    middle(word.box) > box.y1 && word.box.y0 - box.y1 < 6 * h
  );
  if (below.length === 0) return null;
  const top = Math.min(...below.map((word) => middle(word.box)));
  return below.filter((word) => middle(word.box) - top < 0.6 * h)
    .sort((a, b) => a.box.x0 - b.box.x0)[0];
}

function scored(checked: CheckedValue, ocrConfidence: number): ReadField {
  const ocr = Math.max(0, Math.min(1, ocrConfidence / 100));
  // A value that passed a check (a VIN check digit, a plate's shape, a calendar
  // date) is surer than OCR alone says; one that failed is not to be trusted.
  const confidence = checked.valid ? 0.6 + 0.4 * ocr : 0.4 * ocr;
  return {
    value: checked.value,
    confidence: round(confidence),
    valid: checked.valid,
    ...(checked.note ? { note: checked.note } : {}),
  };
}

/**
 * Checks between fields: issue before today before expiry, birth before issue, a VIN's maker
 * code against the make.
 */
function crossCheck(type: DocumentType, fields: Record<string, ReadField>, today: Date): void {
  const todayIso = today.toISOString().slice(0, 10);
  const doubt = (field: string, note: string) => {
    const read = fields[field];
    if (!read) return;
    read.valid = false;
    read.note = read.note ? `${read.note}; ${note}` : note;
    read.confidence = round(Math.min(read.confidence, 0.4));
  };
  const issue = fields.issue_date?.value ?? fields.start_date?.value;
  if (issue && issue > todayIso) {
    doubt(fields.issue_date ? "issue_date" : "start_date", "issued after today");
  }
  const expiry = fields.expiry_date?.value ?? fields.end_date?.value;
  if (issue && expiry && expiry <= issue) {
    doubt(fields.expiry_date ? "expiry_date" : "end_date", "ends before it starts");
  } else if (expiry && expiry < todayIso) {
    const field = fields.expiry_date ? "expiry_date" : "end_date";
    // Expired is a fact about the document, not a misreading: note it, keep the confidence.
    fields[field].note = "expired";
  }
  const birth = fields.date_of_birth?.value;
  if (birth && issue && birth >= issue) {
    doubt("date_of_birth", "born after the document was issued");
  }
  const vin = fields.vin;
  const againstMake = vin && fields.make && vinAgainstMake(vin.value, fields.make.value);
  if (againstMake?.kind === "repaired") {
    fields.vin = { value: againstMake.value, confidence: vin.confidence, valid: true };
    doubt("vin", againstMake.note);
  } else if (againstMake) {
    doubt("vin", againstMake.note);
  }
  const id = fields.national_id?.value;
  if (type !== "vehicle_registration" && birth && id && id.slice(1, 5) !== birth.slice(0, 4)) {
    doubt("national_id", "the birth year in the ID does not match the date of birth");
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
