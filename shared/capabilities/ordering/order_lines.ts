/**
 * Reads what a customer types to order from a numbered list of a venue's
 * stock: "2 latte, 1 croissant", "3", "2 x 4", "20 bags of cement na 10 iron
 * bar 12mm", "1, 3". A bare number picks that line of the list (never a
 * product search); a number before a name or a list number is a quantity.
 * Names match the listed products by their words (accents, case and plural
 * "s" ignored), so "lattes" finds "Café latte".
 *
 * @module
 */

/** A listed product, in the order it was shown (line 1 first). */
export interface ListedProduct {
  /** The venue's internal code: never shown. */
  sku: string;
  /** What people read. */
  name: string;
  /** The name as stocked, when `name` is its name in the reader's language: matched too. */
  listed?: string;
}

/** One understood line. */
export interface OrderLine<T extends ListedProduct = ListedProduct> {
  /** The product. */
  product: T;
  /** How many. */
  qty: number;
}

/** What a message asked for. */
export interface ParsedOrder<T extends ListedProduct = ListedProduct> {
  /** The lines understood, one per product (quantities of a repeated product add up). */
  lines: OrderLine<T>[];
  /** The parts that named nothing listed, as written. */
  unknown: string[];
}

// Words that are never a product's name: units, fillers, "and" in three languages.
const FILLER = new Set([
  "of",
  "de",
  "du",
  "des",
  "la",
  "le",
  "les",
  "and",
  "et",
  "na",
  "n",
  "please",
  "pls",
  "svp",
  "x",
  "bag",
  "bags",
  "sac",
  "sacs",
  "umufuka",
  "imifuka",
  "piece",
  "pieces",
  "pcs",
  "plate",
  "plates",
  "cup",
  "cups",
  "bottle",
  "bottles",
  "a",
  "an",
  "one",
  "un",
  "une",
  "i",
  "want",
  "need",
  "order",
  "je",
  "veux",
  "voudrais",
  "ndashaka",
  "nshaka",
  "give",
  "me",
  "get",
  "add",
  "with",
  "also",
  "more",
  "y",
  "ya",
  "za",
  "kg",
]);

// Words that open a request before its items ("I'd like", « je voudrais », "ndashaka",
// "mwampa"): dropped from a part's start, so the quantity after them is read as one.
const FRAME = new Set([
  ...FILLER,
  "id",
  "d",
  "would",
  "like",
  "can",
  "could",
  "have",
  "we",
  "us",
  "just",
  "j",
  "aimerais",
  "veut",
  "voulons",
  "prendre",
  "donnez",
  "donne",
  "moi",
  "nous",
  "pour",
  "nkeneye",
  "dushaka",
  "turashaka",
  "nifuza",
  "mpa",
  "mumpe",
  "mwampa",
  "nzanira",
  "munzanire",
  // Greetings and thanks said around an order ("Muraho, 2 lattes").
  "hello",
  "hi",
  "hey",
  "good",
  "morning",
  "afternoon",
  "evening",
  "thanks",
  "thank",
  "you",
  "bonjour",
  "bonsoir",
  "bjr",
  "salut",
  "slt",
  "merci",
  "muraho",
  "mwaramutse",
  "mwiriwe",
  "bite",
  "murakoze",
]);

/** The part without the words of request that open it: "I want 2 lattes" → "2 lattes". */
function withoutFrame(part: string): string {
  let rest = part;
  for (;;) {
    const word = /^([^\s\d]+)\s+(?=\S)/.exec(rest);
    if (!word || !normalizeWords(word[1]).every((w) => FRAME.has(w))) return rest;
    rest = rest.slice(word[0].length);
  }
}

/** Lower case, no accents, letters and digits only. */
export function normalizeWords(text: string): string[] {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, " ").trim().split(" ").filter(Boolean);
}

function stem(word: string): string {
  return word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word;
}

function wordsMatch(asked: string, listed: string): boolean {
  const a = stem(asked);
  const b = stem(listed);
  if (a === b) return true;
  // "brochette" ~ "brochettes", "cap" is too short to stand for "cappuccino".
  return a.length >= 4 && b.startsWith(a);
}

/**
 * How well `asked` names `name`: the share of the asked words found in it
 * (0 when fewer than half are).
 */
export function nameScore(asked: string, name: string): number {
  const wanted = normalizeWords(asked).filter((word) => !FILLER.has(word));
  if (!wanted.length) return 0;
  const words = normalizeWords(name);
  const found = wanted.filter((word) => words.some((listed) => wordsMatch(word, listed))).length;
  const score = found / wanted.length;
  return score >= 0.5 ? score : 0;
}

/** The listed product `asked` names best, or null when none or two tie at the top. */
export function bestProduct<T extends ListedProduct>(asked: string, list: readonly T[]): T | null {
  let best: T | null = null;
  let top = 0;
  let tie = false;
  for (const product of list) {
    // A customer may name it in their language or as stocked ("frites" or "chips").
    const score = Math.max(
      nameScore(asked, product.name),
      product.listed ? nameScore(asked, product.listed) : 0,
    );
    if (score > top) [best, top, tie] = [product, score, false];
    else if (score === top && score > 0) tie = true;
  }
  return tie ? null : best;
}

// Parts split on commas, semicolons, "+", new lines and "and" in en/rw/fr.
const SEPARATORS = /\s*(?:[,;+\n]|\band\b|\bna\b|\bet\b|\bn')\s*/i;

const BARE_NUMBER = /^#?(\d{1,3})[.)]?$/;
const QTY_X_NUMBER = /^(\d{1,4})\s*[x×*]\s*#?(\d{1,3})$/i;
const QTY_NAME = /^(\d{1,4})\s*[x×*]?\s*(\D.*)$/i;
const NAME_X_QTY = /^(\D.*?)\s*(?:[x×*]\s*|\s)(\d{1,4})$/i;

/**
 * Reads an order message against the list shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseOrderLines } from "./order_lines.ts";
 *
 * const menu = [{ sku: "CAF-LAT", name: "Café latte" }, { sku: "QC-CROIS", name: "Butter croissant" }];
 * const order = parseOrderLines("2 lattes, 1 croissant", menu);
 * assert.deepEqual(order.lines.map((l) => [l.product.sku, l.qty]), [["CAF-LAT", 2], ["QC-CROIS", 1]]);
 * assert.deepEqual(parseOrderLines("2", menu).lines.map((l) => [l.product.sku, l.qty]), [["QC-CROIS", 1]]);
 * ```
 */
export function parseOrderLines<T extends ListedProduct>(
  text: string,
  list: readonly T[],
): ParsedOrder<T> {
  const lines: OrderLine<T>[] = [];
  const unknown: string[] = [];
  const add = (product: T | null | undefined, qty: number, part: string) => {
    if (!product || qty < 1) return void unknown.push(part);
    const same = lines.find((line) => line.product.sku === product.sku);
    if (same) same.qty += qty;
    else lines.push({ product, qty });
  };
  const byNumber = (n: string) => list[Number(n) - 1];
  for (const raw of text.split(SEPARATORS)) {
    const written = raw.trim();
    if (!written) continue;
    // A greeting or thanks alone names nothing and asks for nothing.
    if (normalizeWords(written).every((word) => FRAME.has(word))) continue;
    const part = withoutFrame(written);
    let match = BARE_NUMBER.exec(part);
    if (match) {
      add(byNumber(match[1]), 1, written);
      continue;
    }
    match = QTY_X_NUMBER.exec(part);
    if (match) {
      add(byNumber(match[2]), Number(match[1]), written);
      continue;
    }
    match = QTY_NAME.exec(part);
    if (match) {
      add(bestProduct(match[2], list), Number(match[1]), written);
      continue;
    }
    match = NAME_X_QTY.exec(part);
    if (match) {
      add(bestProduct(match[1], list), Number(match[2]), written);
      continue;
    }
    add(bestProduct(part, list), 1, written);
  }
  return { lines, unknown };
}
