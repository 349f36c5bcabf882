/**
 * Lays a document's content out as an A4 PDF with `pdf-lib`, embedding a
 * subset of DejaVu Sans through `@pdf-lib/fontkit` so every letter of
 * English, French and Kinyarwanda (é è ç ô, the ’ apostrophe) renders and
 * extracts as text.
 *
 * Deterministic: the same content and id give the same bytes. The creation
 * and modification dates are the document's own date, the font subset has a
 * fixed name instead of pdf-lib's random suffix, and the trailer's /ID is the
 * id the caller derives from the input's hash.
 *
 * @module
 */
import { fontkit } from "./fontkit.ts";
import { PDFDocument, PDFFont, PDFHexString, type PDFPage, rgb } from "pdf-lib";
import type { Language } from "@shared/contract/language.ts";
import { dejaVuSans } from "./font.ts";
import type { DocumentContent, DocumentTable } from "./template.ts";

/** Options for {@link renderPdf}. */
export interface RenderPdfOptions {
  /** 32 hex digits written as the file's /ID (from a hash of the input). */
  id: string;
  /** The document's language, written in its catalog. */
  language: Language;
}

// fontkit parses the 757 KB font in tens of milliseconds; parse it once per
// process (each document still takes its own subset of the parsed font).
const parsedFonts = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();
const PARSED_ONCE: typeof fontkit = {
  create(bytes: Uint8Array, postscriptName?: string) {
    let font = parsedFonts.get(bytes);
    if (!font) parsedFonts.set(bytes, font = fontkit.create(bytes, postscriptName));
    return font;
  },
};

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const WIDTH = PAGE.width - 2 * MARGIN;
const LABEL_WIDTH = 160;
const INK = rgb(0.1, 0.1, 0.12);
const GREY = rgb(0.42, 0.42, 0.45);
const RULE = rgb(0.8, 0.8, 0.82);
const ACCENT = rgb(0.0, 0.36, 0.55);

/**
 * The PDF of `content`.
 *
 * @throws {TypeError} when `options.id` is not 32 hex digits.
 */
export async function renderPdf(
  content: DocumentContent,
  options: RenderPdfOptions,
): Promise<Uint8Array> {
  if (!/^[0-9a-f]{32}$/.test(options.id)) {
    throw new TypeError(`Cannot render a PDF as its id must be 32 hex digits: "${options.id}"`);
  }
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(PARSED_ONCE);
  const font = await doc.embedFont(await dejaVuSans(), { subset: true, customName: "DejaVuSans" });
  doc.setTitle(content.title);
  doc.setLanguage(options.language);
  doc.setCreator("EasyMO");
  doc.setProducer("EasyMO documents (pdf-lib)");
  doc.setCreationDate(content.date);
  doc.setModificationDate(content.date);
  const id = PDFHexString.of(options.id);
  doc.context.trailerInfo.ID = doc.context.obj([id, id]);

  const pen = new Pen(doc, font);
  pen.text("EasyMO", { size: 10, color: ACCENT });
  pen.gap(6);
  pen.paragraph(content.title, { size: 18 });
  if (content.subtitle) pen.paragraph(content.subtitle, { size: 11, color: GREY });
  pen.gap(6);
  pen.rule();
  for (const section of content.sections) {
    pen.gap(10);
    if (section.heading) {
      pen.paragraph(section.heading, { size: 12.5, color: ACCENT });
      pen.gap(2);
    }
    for (const field of section.fields) pen.field(field.label, field.value);
  }
  if (content.table) {
    pen.gap(14);
    pen.table(content.table);
  }
  if (content.notes?.length) {
    pen.gap(16);
    pen.rule();
    pen.gap(4);
    for (const note of content.notes) {
      pen.paragraph(note, { size: 9, color: GREY });
      pen.gap(3);
    }
  }
  return await doc.save({ useObjectStreams: false });
}

interface Style {
  size: number;
  color?: ReturnType<typeof rgb>;
  x?: number;
  width?: number;
}

// Writes top to bottom, starting a page when the next line would not fit.
class Pen {
  #doc: PDFDocument;
  #font: PDFFont;
  #page: PDFPage;
  #y: number;

  constructor(doc: PDFDocument, font: PDFFont) {
    this.#doc = doc;
    this.#font = font;
    this.#page = doc.addPage([PAGE.width, PAGE.height]);
    this.#y = PAGE.height - MARGIN;
  }

  gap(points: number): void {
    this.#y -= points;
  }

  rule(): void {
    this.#room(4);
    this.#page.drawLine({
      start: { x: MARGIN, y: this.#y },
      end: { x: MARGIN + WIDTH, y: this.#y },
      thickness: 0.6,
      color: RULE,
    });
    this.#y -= 4;
  }

  text(value: string, style: Style): void {
    this.#room(style.size * 1.35);
    this.#y -= style.size;
    this.#draw(value, style.x ?? MARGIN, style);
    this.#y -= style.size * 0.35;
  }

  paragraph(value: string, style: Style): void {
    for (const line of this.#wrap(value, style.size, style.width ?? WIDTH)) this.text(line, style);
  }

  // A label in the left column, its value (wrapped) in the right one.
  field(label: string, value: string): void {
    const labelLines = this.#wrap(label, 9.5, LABEL_WIDTH - 10);
    const valueLines = this.#wrap(value, 11, WIDTH - LABEL_WIDTH);
    const lines = Math.max(labelLines.length, valueLines.length);
    this.#room(lines * 11 * 1.4 + 4);
    for (let i = 0; i < lines; i++) {
      this.#y -= 11;
      if (labelLines[i]) this.#draw(labelLines[i], MARGIN, { size: 9.5, color: GREY });
      if (valueLines[i]) this.#draw(valueLines[i], MARGIN + LABEL_WIDTH, { size: 11 });
      this.#y -= 11 * 0.4;
    }
    this.#y -= 3;
  }

  table(table: DocumentTable): void {
    const total = table.columns.reduce((sum, column) => sum + column.width, 0);
    const widths = table.columns.map((column) => (column.width / total) * WIDTH);
    const row = (cells: readonly string[], size: number, color = INK) => {
      const wrapped = cells.map((cell, i) => this.#wrap(cell, size, widths[i] - 8));
      const lines = Math.max(...wrapped.map((cell) => cell.length));
      this.#room(lines * size * 1.4 + 6);
      for (let line = 0; line < lines; line++) {
        this.#y -= size;
        let x = MARGIN;
        wrapped.forEach((cell, i) => {
          const value = cell[line];
          if (value) {
            const right = table.columns[i].numeric;
            const width = this.#font.widthOfTextAtSize(value, size);
            this.#draw(value, right ? x + widths[i] - 4 - width : x, { size, color });
          }
          x += widths[i];
        });
        this.#y -= size * 0.4;
      }
      this.#y -= 3;
    };
    row(table.columns.map((column) => column.header), 9.5, GREY);
    this.rule();
    this.gap(2);
    for (const cells of table.rows) row(cells, 10.5);
    if (table.total) {
      this.rule();
      this.gap(2);
      row(table.total, 11.5);
    }
  }

  #draw(value: string, x: number, style: Style): void {
    this.#page.drawText(value, {
      x,
      y: this.#y,
      size: style.size,
      font: this.#font,
      color: style.color ?? INK,
    });
  }

  #room(points: number): void {
    if (this.#y - points >= MARGIN) return;
    this.#page = this.#doc.addPage([PAGE.width, PAGE.height]);
    this.#y = PAGE.height - MARGIN;
  }

  // Greedy word wrap; a word wider than the line is cut by characters (whole code points), at
  // least one a line, so any width ends, and each word is measured once per character.
  #wrap(value: string, size: number, width: number): string[] {
    const widthOf = (text: string) => this.#font.widthOfTextAtSize(text, size);
    const room = Math.max(width, 0);
    const lines: string[] = [];
    for (const paragraph of value.split("\n")) {
      let line = "";
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (widthOf(candidate) <= room) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = "";
        let used = 0;
        for (const char of word) {
          const charWidth = widthOf(char);
          if (line && used + charWidth > room) {
            lines.push(line);
            line = "";
            used = 0;
          }
          line += char;
          used += charWidth;
        }
      }
      lines.push(line);
    }
    return lines;
  }
}
