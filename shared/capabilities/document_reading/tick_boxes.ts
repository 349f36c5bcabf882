/**
 * Closed choices printed as boxes ("☒ Private ☐ Commercial", "[X] A [ ] B
 * [X] C"): which options are ticked. Forms print every option and mark the
 * chosen ones, so reading the words alone takes the first option printed;
 * the value is the option (or options) after a marked box.
 *
 * OCR reads a box in many ways: `[X]`, `[x]`, `(X)`, `[V]`, `☒`, `☑` for a
 * ticked one; `[]`, `[ ]`, `[CJ`, `LJ`, `☐`, `O`, `0` for an empty one. A box
 * is told by its brackets (or its own glyph), and a tick by a cross or check
 * between them. When no box is read as ticked, or none is told at all, the
 * text is left as it was (the caller reads it as before).
 *
 * @module
 */

// A ticked box: brackets around a cross or check, or a ticked-box glyph.
const TICKED = /^(?:[\[(|{lI1]?\s*[xX×✓✔✗✘vVY]\s*[\])|}lI1J]|[☒☑⊠■▣])$/;
// An empty box: brackets with nothing (or OCR's debris of the box itself: a digit, a C, a J)
// between, or its glyph.
const EMPTY = /^(?:[\[(|{L]\s*(?:[^\p{L}\s\])]|[CcJjLlIOo])?\s*[\])|}J]|[☐□▢]|LJ)$/u;

/** What a printed box is: ticked, empty, or no box at all. */
export function boxState(token: string): "ticked" | "empty" | null {
  const text = token.trim();
  if (TICKED.test(text)) return "ticked";
  if (EMPTY.test(text)) return "empty";
  return null;
}

// A box at a word's start, glued to its option ("[X]PRIVATE", "[UTILITAIRE", "(JA", "[]o"): its
// opening bracket, what is inside (a tick, or the box's own debris), and its closing edge.
const BOX_PREFIX = /^[\[(]\s*(?:[xX×✓✔vV]|[^\p{L}\s\])]|[CcOoJjLlI](?=[\])|J]))?\s*[\])|J]?/u;

/**
 * The option (or options) a line of boxes marks, joined by ", " in printed
 * order, or null when none is marked. OCR loses a ticked box more often than
 * an empty one (the tick and the box merge into one blot), so when no box is
 * read as ticked but some are read empty, the option read without a box is
 * the chosen one. Text with no box at all is answered as it is.
 */
export function tickedOptions(raw: string): string | null {
  const tokens = raw
    // A box read with spaces inside it: "[ ]", "[ X ]".
    .replace(/([\[(])\s*([xX×✓✔vV_]?)\s*([\])])/g, "$1$2$3")
    // A box glyph glued to its option's word: "☒Private", "Private☐".
    .replace(/([☒☑☐□⊠■▣])(?=\p{L})/gu, "$1 ")
    .replace(/(\p{L})([☒☑☐□⊠■▣])/gu, "$1 $2")
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((token) => {
      if (boxState(token)) return [token];
      const box = BOX_PREFIX.exec(token)?.[0];
      return box && box.length < token.length && /\p{L}/u.test(token.slice(box.length))
        ? [box.length > 1 ? box : `${box}]`, token.slice(box.length)]
        : [token];
    });
  const segments: Array<{ state: "ticked" | "empty" | "none"; words: string[] }> = [{
    state: "none",
    words: [],
  }];
  for (const token of tokens) {
    // (A tick alone is a ticked box whose edges were dropped as a comb's: "[X]" read "X".)
    const state = /^[xX×✓✔]$/.test(token)
      ? "ticked"
      : boxState(token.length === 1 && /[\[(]/.test(token) ? `${token}]` : token);
    if (state) segments.push({ state, words: [] });
    // A rule or a dash between options is neither an option nor a box.
    else if (/[\p{L}\d]/u.test(token)) segments.at(-1)!.words.push(token);
  }
  if (segments.length === 1) return raw;
  const options = (state: string) =>
    segments.filter((segment) => segment.state === state && segment.words.length)
      .map((segment) => segment.words.join(" "));
  const ticked = options("ticked");
  if (ticked.length) return ticked.join(", ");
  const unboxed = options("none");
  return unboxed.length ? unboxed.join(", ") : null;
}
