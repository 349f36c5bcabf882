/**
 * How far apart two words are as typed: the edits (a letter added, dropped or changed) that
 * turn one into the other, and whether a typed word is a small typo of another.
 *
 * @module
 */

/** The Levenshtein distance between `a` and `b` (letters added, dropped or changed). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Whether `typed` is `word` or a small typo of it: one edit per five letters of `word`
 * ("menyu", "acceuil", "Continer" still mean it); words under five letters only as written.
 */
export function withinTypo(typed: string, word: string): boolean {
  if (typed === word) return true;
  const allowed = Math.floor(word.length / 5);
  return allowed > 0 && Math.abs(typed.length - word.length) <= allowed &&
    editDistance(typed, word) <= allowed;
}
