/**
 * What a document template is: an id, a zod schema of its data, and a
 * function from valid data and a language to the document's content (title,
 * labelled fields, a table, notes). `pdf_render.ts` lays any content out the
 * same way, so a template only says what the document holds, in en, fr and rw.
 *
 * @module
 */
import type { z } from "zod";
import type { Language } from "@shared/contract/language.ts";

/** One labelled value, e.g. "Insurer: SONARWA". */
export interface DocumentField {
  label: string;
  value: string;
}

/** A table: header cells, then rows of cells; `numeric` columns align right. */
export interface DocumentTable {
  columns: Array<{ header: string; numeric?: boolean; width: number }>;
  rows: string[][];
  /** A last row set apart (a total). */
  total?: string[];
}

/** A field only when its value is known: spread into a section's fields. */
export function optionalField(label: string, value: string | undefined): DocumentField[] {
  return value ? [{ label, value }] : [];
}

/** One priced line of a receipt or quotation. */
export interface PricedLine {
  name: string;
  qty: number;
  unit_price: number;
}

/**
 * The table of priced lines a receipt and a quotation share: item, quantity, unit price and
 * amount, the total set apart. `label` gives each header in the document's language (a template's
 * own phrase book, which names them `item`, `qty`, `unit`, `amount`, `total`); `money` formats an
 * amount in its currency.
 */
export function pricedLinesTable(options: {
  label: (header: "item" | "qty" | "unit" | "amount" | "total") => string;
  lines: readonly PricedLine[];
  total: number;
  money: (amount: number) => string;
}): DocumentTable {
  const { label, money } = options;
  return {
    columns: [
      { header: label("item"), width: 46 },
      { header: label("qty"), numeric: true, width: 10 },
      { header: label("unit"), numeric: true, width: 22 },
      { header: label("amount"), numeric: true, width: 22 },
    ],
    rows: options.lines.map((line) => [
      line.name,
      String(line.qty),
      money(line.unit_price),
      money(line.qty * line.unit_price),
    ]),
    total: [label("total"), "", "", money(options.total)],
  };
}

/** A titled group of fields. */
export interface DocumentSection {
  heading?: string;
  fields: DocumentField[];
}

/** What a document shows, in one language. */
export interface DocumentContent {
  /** Big title, e.g. "Attestation d'assurance automobile". */
  title: string;
  /** Under the title, e.g. the certificate number. */
  subtitle?: string;
  /** Labelled fields, by section. */
  sections: DocumentSection[];
  /** A table after the sections. */
  table?: DocumentTable;
  /** Closing notes, one paragraph each. */
  notes?: string[];
  /**
   * The instant written as the PDF's creation and modification date: the
   * document's own date, so the same data gives the same bytes.
   */
  date: Date;
}

/** A document template, registered by id. */
export interface DocumentTemplate<T extends z.ZodType = z.ZodType> {
  /** `snake_case`, e.g. `insurance_certificate`. */
  id: string;
  /** What it is for (tool docs). */
  description: string;
  /** Its data. */
  schema: T;
  /**
   * Whether the document attests a fact (a policy in force, a payment made):
   * only staff and the service (a settlement, a job) may issue it, never a
   * customer with data of their choosing. @default false
   */
  attests?: boolean;
  /** The content of a document for valid data, in a language. */
  content(data: z.output<T>, language: Language): DocumentContent;
}

/** Declares a template (keeps the schema's type for `content`). */
export function defineTemplate<T extends z.ZodType>(
  template: DocumentTemplate<T>,
): DocumentTemplate<T> {
  return template;
}
