/**
 * From OCR lines to a document's fields: which kind of document the page is
 * (by its title and the labels it carries, never by OCR confidence alone: a
 * receipt reads at 95%), each field found after its label (or, failing
 * that, by its shape anywhere on the page), checked by
 * `document_fields.ts`, and a confidence per field and per document that
 * combines what OCR was sure of with whether the value passed its check.
 *
 * @module
 */
import {
  type CheckedValue,
  readDate,
  readName,
  readNationalId,
  readPlate,
  readVin,
  readWord,
  readYear,
} from "./document_fields.ts";

/** The document types ocr_extract reads. */
export const DOCUMENT_TYPES = ["vehicle_registration", "id_card", "license", "policy"] as const;

/** A document type. */
export type DocumentType = typeof DOCUMENT_TYPES[number];

/** One line OCR read, with its confidence 0–100. */
export interface OcrLine {
  /** The line's text. */
  text: string;
  /** OCR's confidence in it, 0–100. */
  confidence: number;
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
  /** The label's last words: the value is what follows. */
  label: RegExp;
  read: Reader;
  /** A shape that finds the value anywhere on the page when its label is unreadable. */
  anywhere?: RegExp;
}

const date: Reader = (raw) => readDate(raw);
const name: Reader = (raw) => readName(raw);
const word: Reader = (raw) => readWord(raw);
const NATIONAL_ID_SHAPE = /\b[123]\s?(?:19|20)\d\d\s?[78]\s?\d{7}\s?\d\s?\d{2}\b/;

/** Per type: the words of its title and each field's label and reader. */
const LAYOUTS: Record<DocumentType, { title: RegExp[]; fields: Record<string, FieldRule> }> = {
  vehicle_registration: {
    title: [/certificate\s+of\s+registration/i, /iyandikwa/i, /immatriculation/i, /chassis/i],
    fields: {
      plate: {
        label: /plate\s*n[o0°]\.?|plaque/i,
        read: readPlate,
        anywhere: /\bR[A-Z0-9]{2}\s*\d{3}\s*[A-Z]\b/,
      },
      vin: { label: /\bvin\b|chassis/i, read: (raw) => readVin(firstToken(raw, 17)) },
      make: { label: /\bmake\b|marque/i, read: word },
      model: { label: /\bmodel\b|mod[eè]le/i, read: word },
      year: { label: /\byear\b|umwaka/i, read: readYear },
      owner_name: { label: /\bowner\b(?!\s*[i1l|]d)|nyirayo/i, read: name },
      owner_national_id: {
        label: /owner\s*[i1l|]?d\b|indangamuntu/i,
        read: readNationalId,
        anywhere: NATIONAL_ID_SHAPE,
      },
      issue_date: { label: /date\s+of\s+issue|yatanzwe/i, read: date },
      expiry_date: { label: /valid\s+until|izarangira/i, read: date },
    },
  },
  license: {
    title: [/driving\s+licen[cs]e/i, /permis\s+de\s+conduire/i, /uruhushya/i, /ibinyabiziga/i],
    fields: {
      full_name: { label: /\bnames?\b|amazina|\bama\w{2,4}\s*\/?\s*n\w{3}s\b/i, read: name },
      date_of_birth: { label: /date\s+of\s+(?:birth|\w*r[nt]h?)\b|amav\w*/i, read: date },
      national_id: {
        label: /national\s+[i1l|]?d|indangamuntu/i,
        read: readNationalId,
        anywhere: NATIONAL_ID_SHAPE,
      },
      licence_number: {
        label: /licen[cs]e\s*n[o0°]\.?|nimero/i,
        read: (raw) => {
          const match = /\b(\d{2})\s*([A-Z0-9])\s*(\d{6})\b/.exec(raw.toUpperCase());
          if (!match) return null;
          const letter =
            ({ "0": "O", "1": "I", "5": "S", "8": "B", "2": "Z" } as Record<string, string>)[
              match[2]
            ] ??
              match[2];
          return { value: `${match[1]}${letter}${match[3]}`, valid: /[A-Z]/.test(letter) };
        },
      },
      categories: {
        label: /categor\w*|ibyiciro/i,
        read: (raw) => {
          const list = raw.toUpperCase().split(/[,;\s]+/).map((token) =>
            token.replace(/[^A-Z0-9]/g, "")
          )
            .map((token) =>
              /^[A-F][1E]?$/.test(token) ? token : /^[A-F][A-Z]$/.test(token) ? token[0] : ""
            )
            .filter(Boolean);
          if (list.length === 0) return null;
          return { value: list.join(", "), valid: true };
        },
      },
      issue_date: { label: /date\s+of\s+issue|yatanzwe/i, read: date },
      expiry_date: { label: /expiry|izarangira/i, read: date },
    },
  },
  id_card: {
    title: [/identity\s+card/i, /carte\s+d.identit/i, /^\W*indangamuntu\W*$/i],
    fields: {
      full_name: { label: /\bnames?\b|amazina|\bama\w{2,4}\s*\/?\s*n\w{3}s\b/i, read: name },
      date_of_birth: { label: /date\s+of\s+(?:birth|\w*r[nt]h?)\b|amav\w*/i, read: date },
      sex: {
        label: /\bsex\b|igitsina/i,
        read: (raw) => {
          const match = /\b(gore|gabo)\b|(?:^|[\/\s])([MF])\b/i.exec(raw);
          if (!match) return null;
          const value = match[1]
            ? (match[1].toLowerCase() === "gore" ? "F" : "M")
            : match[2].toUpperCase();
          return { value, valid: true };
        },
      },
      place_of_issue: { label: /place\s+of\s+issue|yatangiwe\b/i, read: word },
      national_id: {
        label: /national\s+\S{0,2}\s*n[o0°]\.?|national\s+[i1l|]d|id\s*no\.?/i,
        read: readNationalId,
        anywhere: NATIONAL_ID_SHAPE,
      },
      issue_date: { label: /date\s+of\s+issue|yatangiweho/i, read: date },
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
  const tokens = raw.trim().split(/\s+/);
  const exact = tokens.find((token) => token.replace(/[^A-Za-z0-9)\]|]/g, "").length === length);
  if (exact) return exact.replace(/[^A-Za-z0-9)\]|]/g, "");
  // OCR sometimes splits a VIN once: join neighbours.
  for (let i = 0; i + 1 < tokens.length; i++) {
    const joined = (tokens[i] + tokens[i + 1]).replace(/[^A-Za-z0-9)\]|]/g, "");
    if (joined.length === length) return joined;
  }
  return tokens[0] ?? "";
}

const COUNTRY = /republ?ika\s+y.u\s+rwanda|republic\s+of\s+rwanda|rwanda/i;

/** Which document type the page shows: the type whose title words and labels it carries most. */
export function classify(lines: readonly OcrLine[]): { type: DocumentType; score: number } | null {
  const text = lines.map((line) => line.text).join("\n");
  let best: { type: DocumentType; score: number } | null = null;
  for (const type of DOCUMENT_TYPES) {
    const layout = LAYOUTS[type];
    const titles = layout.title.filter((title) =>
      title.flags.includes("m") || title.source.startsWith("^")
        ? lines.some((line) =>
          title.test(line.text)
        )
        : title.test(text)
    ).length;
    const labels = Object.values(layout.fields).filter((rule) =>
      lines.some((line) => rule.label.test(line.text))
    ).length;
    // A title word counts for two labels; the country line is a small hint only.
    const score = titles * 2 + labels + (COUNTRY.test(text) ? 0.5 : 0);
    if (titles > 0 && labels >= 2 && (!best || score > best.score)) best = { type, score };
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
 * after its label (or by its shape), checks it, and scores confidence.
 * Fewer than half of the type's fields found is `unreadable`.
 */
export function readDocument(
  lines: readonly OcrLine[],
  options: ReadDocumentOptions,
): DocumentReading {
  const validate = options.validate ?? true;
  const kind = classify(lines);
  if (!kind) return { kind: "not_a_document" };
  const layout = LAYOUTS[kind.type];
  const fields: Record<string, ReadField> = {};
  const taken = new Set<number>();
  for (const [field, rule] of Object.entries(layout.fields)) {
    const found = findField(lines, rule, taken, options.today, validate);
    if (found) fields[field] = found;
  }
  if (validate) crossCheck(kind.type, fields, options.today);
  const expected = Object.keys(layout.fields).length;
  const found = Object.keys(fields).length;
  if (found < Math.ceil(expected / 2)) {
    return { kind: "unreadable", type: kind.type, found, expected };
  }
  return documentReading(kind.type, fields);
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

function findField(
  lines: readonly OcrLine[],
  rule: FieldRule,
  taken: Set<number>,
  today: Date,
  validate: boolean,
): ReadField | null {
  for (const [index, line] of lines.entries()) {
    if (taken.has(index)) continue;
    const match = lastMatch(line.text, rule.label);
    if (!match) continue;
    const rest = line.text.slice(match.index + match[0].length).replace(/^[\s:.\/|-]+/, "");
    if (!validate) {
      const value = rest.replace(/\s+/g, " ").trim();
      if (!value) continue;
      taken.add(index);
      return { value, confidence: round(line.confidence / 100), valid: true };
    }
    const checked = rule.read(rest, today);
    if (!checked) continue;
    taken.add(index);
    return scored(checked, line.confidence);
  }
  if (!validate || !rule.anywhere) return null;
  for (const [index, line] of lines.entries()) {
    if (taken.has(index)) continue;
    const shape = rule.anywhere.exec(line.text.toUpperCase());
    if (!shape) continue;
    const checked = rule.read(shape[0], today);
    if (!checked?.valid) continue;
    taken.add(index);
    // Found without its label: a little less sure.
    return scored(checked, line.confidence * 0.9);
  }
  return null;
}

function lastMatch(text: string, label: RegExp): RegExpExecArray | null {
  const global = new RegExp(
    label.source,
    label.flags.includes("g") ? label.flags : label.flags + "g",
  );
  let last: RegExpExecArray | null = null;
  for (const match of text.matchAll(global)) last = match as RegExpExecArray;
  return last;
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

/** Checks between fields: issue before today before expiry, birth before issue. */
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
  const id = fields.national_id?.value;
  if (type !== "vehicle_registration" && birth && id && id.slice(1, 5) !== birth.slice(0, 4)) {
    doubt("national_id", "the birth year in the ID does not match the date of birth");
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
