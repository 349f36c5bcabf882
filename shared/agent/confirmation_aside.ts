/**
 * What a message means when it comes while an action waits on the person's
 * Confirm / Cancel, read as the router reads any message (its decision kinds),
 * never by a list of example words: a question or an aside ("can I pay with
 * MoMo?", "are you open on Sunday?", "how much is a ream?") is answered and the
 * read-back kept; a new, different request or the menu replaces it, said so; a
 * cancel of "it" cancels it; words that say nothing get the read-back explained.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { decideRoute, type RouteContext } from "./route_decision.ts";

/** What to do with the message, and the language to say it in. */
export interface AtConfirmation {
  /**
   * `aside`: answer it and show the read-back again; `replace`: the pending action is dropped
   * (said so) and the message handled as itself; `cancel`: the person cancels it in words;
   * `help`: explain the read-back and show it again.
   */
  kind: "aside" | "replace" | "cancel" | "help";
  /** The language the message is answered in. */
  language: Language;
}

/** Where the conversation stands while the action waits. */
export interface WaitingState {
  /** The agent whose action waits (the conversation's). */
  agent: string | null;
  /** The conversation's sticky language. */
  langPref: Language | null;
}

/**
 * Reads a message typed while an action waits on Confirm / Cancel (the
 * buttons, "yes" and "cancel" are read before, by `decisionOf`).
 *
 * @example
 * ```ts ignore
 * readAtConfirmation("Je peux payer par MoMo ?", { agent: "shop", langPref: "en" }, router);
 * // { kind: "aside", language: "fr" }
 * ```
 */
export function readAtConfirmation(
  text: string,
  state: WaitingState,
  context: RouteContext,
): AtConfirmation {
  const decision = decideRoute(text, {
    agent: state.agent,
    atMenu: false,
    menuOptions: context.agents.menu,
    langPref: state.langPref,
  }, context);
  const language = decision.replyLanguage;
  switch (decision.kind) {
    // The way out from anywhere: the action is not done, and the person is told so.
    case "menu":
    case "pick":
      return { kind: "replace", language };
    // "Cancel it" is the Cancel button in words; moving "it" is a question to the flow.
    case "open_work":
      return { kind: decision.change === "cancel" ? "cancel" : "aside", language };
    // Words that name nothing: what the buttons do, then the same read-back.
    case "clarify":
      return { kind: "help", language };
    case "route": {
      // Danger comes first, and another service asked for is a new request; a question the
      // front desk answers from data (hours, how to pay) or a complaint heard aside is not.
      const elsewhere = decision.agent !== state.agent && !decision.aside &&
        !decision.frontDeskOwn;
      return { kind: decision.urgent || elsewhere ? "replace" : "aside", language };
    }
    // The flow's own matter (a price, stock, delivery, haste), staff work or a service this
    // tenant lacks: answered beside the read-back.
    default:
      return { kind: "aside", language };
  }
}

const say = phraseBook({
  // A new request or the menu came instead of an answer: the action is dropped, said plainly.
  notDone: {
    en: "“{what}” was not confirmed, so it was not done.",
    rw: "“{what}” ntibyemejwe, bityo ntibyakozwe.",
    fr: "« {what} » n'a pas été confirmé : rien n'a été fait.",
  },
});

/**
 * What the person is told when a pending action is dropped for a new request:
 * the action by its read-back's first line ("Order at Beaver Paper Warehouse").
 */
export function notDoneText(summary: string, language: Language): string {
  const what = summary.split("\n")[0].trim().replace(/\s*[:：]$/, "").slice(0, 120);
  return say("notDone", language, { what });
}
