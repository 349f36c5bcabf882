/**
 * A button or list row typed instead of tapped: « continuer », "talk to a persn", "2. Yego"
 * are the tap of the last message's option with that title, so every flow that reads only the
 * tapped id gets it. Only a whole message that is one option's title counts, tolerant of case,
 * accents, punctuation, emoji, the option's own number ("2. Continuer") and one typo per five
 * letters; a real answer is never taken: a bare number, a quantity ("2 beef brochettes"), a
 * title with digits (an amount) or a
 * person's or place's name ("Aline Uwase") must be typed as written, and a message as near to
 * two options as to one is left to the flow.
 *
 * @module
 */
import type { AgentReply } from "@shared/registry/pack.ts";
import { withinTypo } from "@shared/contract/edit_distance.ts";

/** An option of a message: what a tap sends back. */
export interface Option {
  /** The id a tap returns. */
  id: string;
  /** The title the person reads. */
  title: string;
}

/**
 * The option of `offered` (the last message's buttons and list rows) that `text` names by its
 * title, or null when it names none, or more than one. An option titled with `name` (the
 * sender's own name, offered as an answer) is matched only as written: a person typing their
 * name otherwise is correcting it.
 */
export function typedChoice(
  text: string,
  offered: readonly AgentReply[],
  { name }: { name?: string } = {},
): Option | null {
  const options = offered.flatMap((reply) => [...reply.buttons ?? [], ...reply.rows ?? []]);
  if (!options.length) return null;
  const typed = folded(text);
  // A bare number is a quantity, an amount or a count as often as an option's place.
  if (typed === "" || /^\d+$/.test(typed)) return null;
  const exact = options.filter((option) => folded(option.title) === typed);
  if (exact.length) return exact.length === 1 ? exact[0] : null;
  // "2. Continuer", "2) Talk to a person": the option's own number, then a mark, before its
  // title. A number and a space is a quantity ("2 beef brochettes"), never an option's place.
  const numbered = /^\s*(\d{1,2})\s*[.):-]\s*(\S.*)$/s.exec(text);
  const near = options.filter((option, index) => {
    const said = numbered && Number(numbered[1]) === index + 1 ? folded(numbered[2]) : typed;
    const title = folded(option.title);
    if (said === title) return true;
    // Digits are never a typo: a number typed is a quantity or an amount.
    return !/\d/.test(title + said) && !isProperName(option.title) &&
      (name === undefined || title !== folded(name)) && withinTypo(said, title);
  });
  return near.length === 1 ? near[0] : null;
}

// Lower case, no accents, no punctuation or emoji, single spaces.
function folded(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

// Two or more capitalised words ("Aline Uwase", "Café Nyamirambo"): a name, which a person who
// types it differently is correcting, not mistyping.
function isProperName(title: string): boolean {
  const words = title.trim().split(/\s+/);
  return words.length >= 2 && words.every((word) => /^\p{Lu}/u.test(word));
}
