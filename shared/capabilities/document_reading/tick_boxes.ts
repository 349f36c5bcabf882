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
// An empty box: brackets with nothing (or OCR's debris of the box itself) between, or its glyph.
const EMPTY = /^(?:[\[(|{L]\s*[_CcJjLlI1|\s]?\s*[\])|}J]|\[\]|[☐□▢]|LJ|\[_\])$/;

/** What a printed box is: ticked, empty, or no box at all. */
export function boxState(token: string): "ticked" | "empty" | null {
  const text = token.trim();
  if (TICKED.test(text)) return "ticked";
  if (EMPTY.test(text)) return "empty";
  return null;
}

/**
 * The options a line of boxes marks, joined by ", " (in printed order); null
 * when the text holds fewer than two boxes or none is ticked. A box glued to
 * its option ("[X]PRIVATE") is split off first.
 */
export function tickedOptions(raw: string): string | null {
  const tokens = raw
    // A box read with spaces inside it: "[ ]", "[ X ]".
    .replace(/([\[(])\s*([xX×✓✔vV_]?)\s*([\])])/g, "$1$2$3")
    // A box glued to its option's word: "[X]PRIVATE", "☒Private".
    .replace(/([\])}☒☑☐□⊠■▣])(?=\p{L})/gu, "$1 ")
    .replace(/(\p{L})([\[(☒☑☐□⊠■▣])/gu, "$1 $2")
    .split(/\s+/)
    .filter(Boolean);
  const states = tokens.map(boxState);
  if (states.filter(Boolean).length < 2 || !states.includes("ticked")) return null;
  const chosen: string[] = [];
  let current: string[] | null = null;
  for (const [index, token] of tokens.entries()) {
    const state = states[index];
    if (state) {
      if (current?.length) chosen.push(current.join(" "));
      current = state === "ticked" ? [] : null;
      continue;
    }
    current?.push(token);
  }
  if (current?.length) chosen.push(current.join(" "));
  return chosen.length ? chosen.join(", ") : null;
}
