/**
 * A bare yes, in en/rw/fr ("yes", "ok", "yego", "oui", "d'accord", 👍): the Confirm button in
 * words where something waits on it, and where nothing does, a yes to nothing (never an item to
 * search or a service to guess).
 *
 * @module
 */

const YES =
  /^(?:yes|yeah|yep|ok|okay|sure|confirm|yego|ego|ee|yee|sawa|oui|ouais|d'accord|dac|✅|👍)[\s!.]*$/iu;

/**
 * Whether `text` is a yes and nothing else.
 *
 * @example
 * ```ts
 * import { saysYes } from "@shared/contract/yes_answer.ts";
 * saysYes("Oui !"); // true
 * saysYes("yes 10 reams"); // false
 * ```
 */
export function saysYes(text: string): boolean {
  return YES.test(text.trim());
}
