/**
 * Parser for a vendor's WhatsApp answer to "Do you have X? Reply YES <price> <qty> or NO".
 *
 * It is pure: a tokenizer (phone numbers, words, numbers, emojis, punctuation) and a few rules.
 *
 * Answer words are matched on whole word tokens, never on substrings, so "now", "noted",
 * "know", "nothing", "nokia", "yesterday" and "Yesu" are not answers. Matching ignores case
 * and accents, and accepts a stretched last letter ("yesss", "nooo", "yegooo").
 *
 * Decisions on ambiguous input:
 * - A phrase that says the item is missing ("out of stock", "sold out", "don't have",
 *   "ntabihari", "rupture", or a yes word right after a negator: "not available",
 *   "pas disponible", "isn't in stock") wins over any yes word in the message. Otherwise the
 *   first plain answer word decides: "no, but I have a similar one" is `no`, and
 *   "yego ariko ntabwo ari nshya" ("yes, but it is not new") is `yes`.
 * - An answer word followed by "?" is a question, not an answer ("yes?", "yess?", "available?").
 * - "y" is yes only as the first word of the message ("y", "Y 1500").
 * - "ok", "okay", "sawa", "d'accord" are yes only when the message also carries a valid price
 *   ("ok 1500"); alone ("ok", "ok let me check") they are `other`.
 * - A message that is only a valid price (with a quantity, markers or filler: "2000 frw x3") is
 *   yes; a bare quantity ("2") or a phone number is `other`.
 * - "no problem" is yes. 👍 ✅ ✔️ 👌 (yes) and ❌ 👎 🚫 (no) count only as the first token.
 * - Numbers: "1,500" and "1.500" are 1500 (RWF has no decimals); "15k" is 15000, "1.5k" and
 *   "1,5k" are 1500; "igihumbi" is 1000 and "ibihumbi 2" is 2000. A decimal without "k"
 *   ("1.5") is not read and stays in the notes.
 * - A number marked as money (frw, rwf, fr, amafaranga, k, "@", "price", "prix", "igiciro") is
 *   the price wherever it stands; one marked as a quantity ("x3", "3x", "2 pcs", "2 pieces",
 *   "2 units", "qty 2", "quantity: 2", "ibice 2") is the quantity wherever it stands.
 * - Unmarked numbers fill the free slots in order, price first ("YES 1500 2"). Prices in RWF are
 *   at least 100 in practice, so when both slots are free: a lone number below 100 is the
 *   quantity ("yes 2"), and "yes 2 1500" (small first, then at least 100) is quantity 2 at 1500.
 * - Phone numbers (07XXXXXXXX, 2507..., +250 7..., also with spaces) are never amounts, and
 *   neither are numbers glued to a word ("iphone13", "64gb") or followed by a unit ("5 kg").
 * - A price must be a whole number in 1..100,000,000 and a quantity in 1..100,000 (see
 *   {@link ParseVendorReplyOptions}); otherwise it is left undefined and stays in the notes.
 * - Price and quantity are only reported for `yes`. `notes` holds the words left after removing
 *   the answer words, price and quantity (dropped when only filler such as "it" or "thanks" is
 *   left); for `other` it is the whole trimmed message.
 * - Button taps: an id equal to, or ending in "_yes"/"-yes"/".yes" (likewise "no"), in any case
 *   ("vendor_yes", template payload "YES"); otherwise the button title is parsed as text
 *   ("Yego", "Oui", "Oya").
 *
 * @module
 */

/** The vendor's answer: has the item, does not, or anything else. */
export type ReplyStatus = "yes" | "no" | "other";

/** What a vendor's reply says. */
export interface ParsedReply {
  /** The answer. */
  status: ReplyStatus;
  /** Unit price in whole RWF, only for `yes`. */
  price?: number;
  /** Quantity available, only for `yes`. */
  quantity?: number;
  /** Currency of `price`; set whenever `price` is. */
  currency?: "RWF";
  /** Words left after removing the answer, price and quantity; the whole message for `other`. */
  notes?: string;
  /** The original message text, or the button title (else its id) for a tap. */
  text: string;
}

/** A tap on a reply button or a template quick reply. */
export interface VendorButtonTap {
  /** The button id or quick-reply payload, e.g. "vendor_yes" or "NO". */
  buttonId: string;
  /** The title shown on the button, e.g. "Yego". */
  title?: string;
}

/** Limits on what counts as a plausible price or quantity. */
export interface ParseVendorReplyOptions {
  /** Largest accepted price in RWF (default {@link DEFAULT_MAX_PRICE}). */
  maxPrice?: number;
  /** Largest accepted quantity (default {@link DEFAULT_MAX_QUANTITY}). */
  maxQuantity?: number;
}

/** Default largest accepted price, in RWF. */
export const DEFAULT_MAX_PRICE = 100_000_000;
/** Default largest accepted quantity. */
export const DEFAULT_MAX_QUANTITY = 100_000;

type HitKind = "yes" | "no" | "missing" | "ok";
type Role = "price" | "quantity";

interface Token {
  kind: "phone" | "word" | "number" | "emoji" | "punct";
  raw: string;
  /** Lower case, no accents, stretched answer words shortened: what rules compare. */
  key: string;
  start: number;
  end: number;
}

interface Hit {
  kind: HitKind;
  first: number;
  last: number;
}

interface Amount {
  value: number;
  role?: Role;
  tokens: number[];
}

// Answer words and phrases (lower case, no accents). "missing" beats every yes word.
const ANSWERS = new Map<string, HitKind>([
  ...words("yes", [
    "yes yeah yea yep yup available",
    "yego yee ee ndabifite turabifite tubifite ndayifite turayifite birahari irahari bihari",
    "oui ouais disponible j'ai",
  ]),
  ...phrases("yes", ["i have", "we have", "in stock", "no problem", "nous avons"]),
  ...words("no", ["no nope nah oya ntabwo non"]),
  ...words("missing", [
    "unavailable ntabyo ntabihari hatubifite ntitubifite ntabifite ntayo ntibihari byashize",
    "indisponible rupture epuise",
  ]),
  ...phrases("missing", [
    "out of stock",
    "sold out",
    "no stock",
    "nothing left",
    "none left",
    "don't have",
    "dont have",
    "do not have",
    "n'ai pas",
    "n'avons pas",
  ]),
  ...words("ok", ["ok okay okey sawa d'accord"]),
]);
const LONGEST_ANSWER = Math.max(...[...ANSWERS.keys()].map((k) => k.split(" ").length));
// A yes word right after one of these says the item is missing.
const NEGATORS = new Set(["not", "isn't", "isnt", "aren't", "arent", "no", "non", "pas", "never"]);
const YES_EMOJI = new Set(["👍", "✅", "✔", "👌", "☑"]);
const NO_EMOJI = new Set(["❌", "👎", "🚫", "✖", "⛔"]);

const CURRENCY = wordSet("frw rwf rfw fr frs franc francs amafaranga");
const PRICE_LABEL = wordSet("price prix igiciro cost @");
const QUANTITY_SUFFIX = wordSet("pcs pc piece pieces unit units unite unites items");
const QUANTITY_PREFIX = wordSet("qty quantity quantite qte ibice");
const TIMES = new Set(["x", "×"]);
const MARKERS = new Set([
  ...CURRENCY,
  ...PRICE_LABEL,
  ...QUANTITY_SUFFIX,
  ...QUANTITY_PREFIX,
  ...TIMES,
  "k",
]);
// Labels before a number ("qty 2", "@1500"), then markers after it ("2000 frw 3"), then currency
// or "x" before it ("frw 2000 3", "x3"): a marker serves one number only.
const MARKER_PASSES: Array<
  { side: "before" | "after"; times: boolean; role: (key: string) => Role | null }
> = [
  {
    side: "before",
    times: false,
    role: (k) => QUANTITY_PREFIX.has(k) ? "quantity" : PRICE_LABEL.has(k) ? "price" : null,
  },
  {
    side: "after",
    times: true,
    role: (k) => CURRENCY.has(k) ? "price" : QUANTITY_SUFFIX.has(k) ? "quantity" : null,
  },
  { side: "before", times: true, role: (k) => CURRENCY.has(k) ? "price" : null },
];
// Units after a number make it a product attribute ("5 kg", "64 gb"), not an amount.
const UNITS = wordSet("gb tb mb go kg g mg l ml cl cm mm inch inches mah hz w v");
// Punctuation that may stand between a prefix marker and its number ("qty: 2").
const JOINERS = new Set([":", "=", "-"]);
// Notes made only of these words carry nothing.
const FILLERS = wordSet(
  "it them this one ones please pls thanks thank you each sir boss murakoze merci",
);
const SMALLEST_LIKELY_PRICE = 100;

const TOKEN = new RegExp(
  [
    String.raw`(?<phone>(?<!\d)(?:\+?250[ -]?|0)7\d{2}[ -]?\d{3}[ -]?\d{3}(?!\d))`,
    String.raw`(?<word>\p{L}[\p{L}\p{M}]*(?:['’-]\p{L}[\p{L}\p{M}]*)*)`,
    String.raw`(?<number>\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:\.\d{3})+(?!\d)|\d+\.\d+` +
    String.raw`|\d+,\d{1,2}(?=\s?k(?!\p{L}))|\d+)`,
    String.raw`(?<emoji>\p{Extended_Pictographic}` +
    String.raw`(?:[\u{1F3FB}-\u{1F3FF}\uFE0F]|\u200D\p{Extended_Pictographic})*)`,
    String.raw`(?<punct>\S)`,
  ].join("|"),
  "giu",
);

/**
 * Reads a vendor's reply (free text, or a button tap) into yes / no / other with the price and
 * quantity when given. See the module documentation for the rules.
 */
export function parseVendorReply(
  input: string | VendorButtonTap,
  options: ParseVendorReplyOptions = {},
): ParsedReply {
  if (typeof input !== "string") return parseButton(input, options);
  const tokens = tokenize(input);
  const hits = findAnswers(tokens);
  const { price, quantity } = assignAmounts(readAmounts(tokens));
  const validPrice = valid(price, options.maxPrice ?? DEFAULT_MAX_PRICE);
  const validQuantity = valid(quantity, options.maxQuantity ?? DEFAULT_MAX_QUANTITY);

  const amountTokens = new Set([...validPrice?.tokens ?? [], ...validQuantity?.tokens ?? []]);
  const bare = validPrice !== undefined && !tokens.some((t) => t.raw === "?") &&
    leftover(input, tokens, amountTokens) === "";
  const status = decide(hits, validPrice !== undefined, bare);
  if (status === "other") return withNotes({ status, text: input }, input.trim());

  const consumed = new Set<number>();
  const agreeing: HitKind[] = status === "yes" ? ["yes", "ok"] : ["no", "missing"];
  for (const hit of hits) {
    if (!agreeing.includes(hit.kind)) continue;
    for (let i = hit.first; i <= hit.last; i++) consumed.add(i);
  }
  const reply: ParsedReply = { status, text: input };
  if (status === "yes" && validPrice) {
    reply.price = validPrice.value;
    reply.currency = "RWF";
    validPrice.tokens.forEach((i) => consumed.add(i));
  }
  if (status === "yes" && validQuantity) {
    reply.quantity = validQuantity.value;
    validQuantity.tokens.forEach((i) => consumed.add(i));
  }
  return withNotes(reply, leftover(input, tokens, consumed));
}

function parseButton(tap: VendorButtonTap, options: ParseVendorReplyOptions): ParsedReply {
  const text = tap.title ?? tap.buttonId;
  const id = /(?:^|[^a-z0-9])(yes|no)$/.exec(tap.buttonId.trim().toLowerCase());
  if (id) return { status: id[1] as ReplyStatus, text };
  const fromTitle = tap.title === undefined ? undefined : parseVendorReply(tap.title, options);
  if (fromTitle && fromTitle.status !== "other") return { status: fromTitle.status, text };
  return withNotes({ status: "other", text }, text.trim());
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const groups = match.groups ?? {};
    const kind = (["phone", "word", "number", "emoji", "punct"] as const).find((k) => groups[k]);
    if (!kind) continue;
    const raw = match[0];
    const start = match.index ?? 0;
    const key = kind === "word"
      ? answerWord(normalize(raw))
      : kind === "emoji"
      ? String.fromCodePoint(raw.codePointAt(0) ?? 0)
      : raw;
    tokens.push({ kind, raw, key, start, end: start + raw.length });
  }
  return tokens;
}

function normalize(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/’/g, "'");
}

// "yesss" → "yes", "nooo" → "no", "yeeee" → "yee"; other words are kept as they are.
function answerWord(word: string): string {
  for (let w = word; w.length > 0; w = w.slice(0, -1)) {
    if (ANSWERS.has(w)) return w;
    if (w.length < 2 || w.at(-1) !== w.at(-2)) break;
  }
  return word;
}

function findAnswers(tokens: Token[]): Hit[] {
  const hits: Hit[] = [];
  const lead = tokens.findIndex((t) => t.kind !== "punct");
  for (let i = 0; i < tokens.length; i++) {
    const hit = answerAt(tokens, i, i === lead);
    if (!hit) continue;
    i = hit.last;
    if (tokens[hit.last + 1]?.raw === "?") continue;
    const before = tokens[hit.first - 1];
    if (hit.kind === "yes" && before?.kind === "word" && NEGATORS.has(before.key)) {
      if (hits.at(-1)?.last === hit.first - 1) hits.pop();
      hits.push({ kind: "missing", first: hit.first - 1, last: hit.last });
    } else {
      hits.push(hit);
    }
  }
  return hits;
}

function answerAt(tokens: Token[], i: number, leading: boolean): Hit | undefined {
  const token = tokens[i];
  if (token.kind === "emoji" && leading) {
    if (YES_EMOJI.has(token.key)) return { kind: "yes", first: i, last: i };
    if (NO_EMOJI.has(token.key)) return { kind: "no", first: i, last: i };
  }
  if (token.kind !== "word") return undefined;
  if (token.key === "y") return leading ? { kind: "yes", first: i, last: i } : undefined;
  for (let n = LONGEST_ANSWER; n >= 1; n--) {
    const span = tokens.slice(i, i + n);
    if (span.length < n || span.some((t) => t.kind !== "word")) continue;
    const kind = ANSWERS.get(span.map((t) => t.key).join(" "));
    if (kind) return { kind, first: i, last: i + n - 1 };
  }
  return undefined;
}

function decide(hits: Hit[], hasPrice: boolean, bare: boolean): ReplyStatus {
  if (hits.some((h) => h.kind === "missing")) return "no";
  const first = hits.find((h) => h.kind === "yes" || h.kind === "no");
  if (first) return first.kind as ReplyStatus;
  return bare || (hasPrice && hits.some((h) => h.kind === "ok")) ? "yes" : "other";
}

// Every number that may be an amount, with the marker tokens that say what it is.
function readAmounts(tokens: Token[]): Amount[] {
  const amounts: Amount[] = [];
  const used = new Set<number>();
  tokens.forEach((token, i) => {
    if (isWord(token, "igihumbi")) amounts.push({ value: 1000, role: "price", tokens: [i] });
    if (token.kind !== "number") return;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if ((glued(prev, token) && isLabel(prev)) || (glued(token, next) && isLabel(next))) return;
    if (next?.kind === "word" && UNITS.has(next.key)) return;
    const thousands = isWord(next, "k");
    const amount: Amount = { value: numberValue(token.raw, thousands), tokens: [i] };
    if (thousands) {
      amount.role = "price";
      amount.tokens.push(i + 1);
      used.add(i + 1);
    }
    if (isWord(prev, "ibihumbi")) {
      amount.value *= 1000;
      amount.role = "price";
      amount.tokens.push(i - 1);
      used.add(i - 1);
    }
    amounts.push(amount);
  });
  for (const pass of MARKER_PASSES) {
    for (const amount of amounts) {
      const n = pass.side === "after" ? Math.max(...amount.tokens) : Math.min(...amount.tokens);
      let j = pass.side === "after" ? n + 1 : n - 1;
      while (pass.side === "before" && JOINERS.has(tokens[j]?.raw ?? "")) j--;
      const marker = tokens[j];
      if (!marker || marker.kind === "number") continue;
      const touching = pass.side === "after" ? glued(tokens[n], marker) : glued(marker, tokens[n]);
      const key = marker.kind === "word" ? marker.key : marker.raw;
      const role = TIMES.has(key) ? (touching && pass.times ? "quantity" : null) : pass.role(key);
      mark(amount, j, role, used);
    }
  }
  return amounts;
}

function mark(amount: Amount, j: number, role: Role | null, used: Set<number>): void {
  if (!role || used.has(j) || (amount.role && amount.role !== role)) return;
  amount.role = role;
  amount.tokens.push(j);
  used.add(j);
}

function assignAmounts(amounts: Amount[]): { price?: Amount; quantity?: Amount } {
  let price = amounts.find((a) => a.role === "price");
  let quantity = amounts.find((a) => a.role === "quantity");
  const free = amounts.filter((a) => !a.role && Number.isFinite(a.value));
  if (!price && !quantity) {
    const [a, b] = free;
    if (a && !b && a.value < SMALLEST_LIKELY_PRICE) quantity = a;
    else if (a && b && a.value < SMALLEST_LIKELY_PRICE && b.value >= SMALLEST_LIKELY_PRICE) {
      [quantity, price] = [a, b];
    } else [price, quantity] = [a, b];
  } else if (!price) price = free[0];
  else if (!quantity) quantity = free[0];
  return { price, quantity };
}

// "1,500" / "1.500" → 1500; with a following "k": "15" → 15000, "1.5" / "1,5" → 1500.
function numberValue(raw: string, thousands: boolean): number {
  const scale = thousands ? 1000 : 1;
  if (/^\d+$/.test(raw) || /^\d{1,3}([.,])\d{3}(?:\1\d{3})*$/.test(raw)) {
    return Number(raw.replace(/[.,]/g, "")) * scale;
  }
  const decimal = /^(\d+)[.,](\d{1,3})$/.exec(raw);
  return thousands && decimal ? Number(decimal[1]) * 1000 + Number(decimal[2].padEnd(3, "0")) : NaN;
}

function valid(amount: Amount | undefined, max: number): Amount | undefined {
  if (!amount || !Number.isInteger(amount.value)) return undefined;
  return amount.value >= 1 && amount.value <= max ? amount : undefined;
}

function leftover(text: string, tokens: Token[], consumed: Set<number>): string {
  let out = "";
  let pos = 0;
  tokens.forEach((token, i) => {
    if (!consumed.has(i)) return;
    out += text.slice(pos, token.start) + " ";
    pos = token.end;
  });
  const chunks = (out + text.slice(pos)).split(/\s+/).filter((c) =>
    /[\p{L}\p{N}]/u.test(c) && !TIMES.has(c.toLowerCase())
  );
  const filler = chunks.every((c) => FILLERS.has(normalize(c).replace(/[^\p{L}']/gu, "")));
  return filler ? "" : chunks.join(" ").replace(/^[,;:–-]+|[,;:–-]+$/g, "");
}

function withNotes(reply: ParsedReply, notes: string): ParsedReply {
  return notes ? { ...reply, notes } : reply;
}

function isWord(token: Token | undefined, key: string): boolean {
  return token?.kind === "word" && token.key === key;
}

// A word that makes a glued number part of a name or size ("iphone13", "64gb").
function isLabel(token: Token): boolean {
  return token.kind === "word" && !MARKERS.has(token.key) && !ANSWERS.has(token.key) &&
    token.key !== "y";
}

function glued(a: Token | undefined, b: Token | undefined): boolean {
  return a !== undefined && b !== undefined && a.end === b.start;
}

function wordSet(list: string): Set<string> {
  return new Set(list.split(" "));
}

function words(kind: HitKind, lines: string[]): Array<[string, HitKind]> {
  return lines.flatMap((line) => line.split(" ")).map((w) => [w, kind]);
}

function phrases(kind: HitKind, list: string[]): Array<[string, HitKind]> {
  return list.map((p) => [p, kind]);
}
