/**
 * Steps offline flows share, whatever their domain: a tool call that may
 * need the user's confirmation first, and telling the user how a confirmed
 * call went once the conversation comes back from the confirmation.
 *
 * @module
 */
import { phraseBook } from "@shared/contract/language.ts";
import type { Language } from "@shared/contract/language.ts";
import type { OfflineFlow, OfflineStep, OfflineToolCaller, OfflineTurn } from "./pack.ts";
import { isToolResult } from "./tool_call.ts";

const say = phraseBook({
  cancelled: { en: "OK, I cancelled that.", rw: "Byakuweho.", fr: "D'accord, c'est annulé." },
  failed: {
    en: "Sorry, that did not work: {msg}",
    rw: "Mutwihanganire, ntibyakunze: {msg}",
    fr: "Désolé, cela n'a pas marché : {msg}",
  },
});

/** A call an offline flow makes, named by its step within the turn. */
export interface OfflineCall {
  /** The tool. */
  tool: string;
  /** Its arguments. */
  args: unknown;
  /** Names the call within the turn: its idempotency key is `<wamid>:<step>`. */
  step: string;
}

/**
 * Makes `call`; when the tool answers CONFIRMATION_REQUIRED, the step pauses
 * the conversation on it (the graph asks the user), else the result is kept
 * for {@link confirmedOutcome} to report.
 */
export async function callWithConfirmation(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  call: OfflineCall,
): Promise<OfflineStep> {
  const result = await callTool(call.tool, call.args, call.step);
  if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
    return {
      pending: {
        tool: call.tool,
        args: call.args,
        key: `${turn.input.wamid}:${call.step}`,
        summary: result.error.confirmation?.summary ?? result.error.msg,
        callId: call.step,
      },
    };
  }
  return { memory: { lastResult: result }, replies: [] };
}

/**
 * Just back from a confirmation: says how the call went (`describe` words a
 * success from its data), or null when no confirmed call awaits a report.
 */
export function confirmedOutcome(
  turn: OfflineTurn,
  describe: (data: unknown) => string,
): OfflineStep | null {
  const result = turn.memory.lastResult;
  if (!isToolResult(result)) return null;
  const text = result.ok
    ? describe(result.data)
    // The user refused the confirmation: nothing was done.
    : result.error.code === "CANCELLED"
    ? say("cancelled", turn.language)
    : say("failed", turn.language, { msg: result.error.msg });
  return { replies: [{ text }], memory: { lastResult: null, lastTool: undefined } };
}

/** Options for {@link confirmTappedChoice}. */
export interface TappedChoiceOptions {
  /** The prefix of the choice ids it answers, e.g. `item:`. */
  prefix: string;
  /** The call a tapped id makes, or null when the flow cannot make it now. */
  call(id: string): OfflineCall | null;
  /** Words a confirmed call's success from its data. */
  describe(data: unknown): string;
}

/**
 * The two ends of a tap that needs confirmation: reports how a confirmed
 * call went, else makes the call a tapped `<prefix><id>` choice names
 * ({@link callWithConfirmation}); null when the turn is neither.
 */
export async function confirmTappedChoice(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: TappedChoiceOptions,
): Promise<OfflineStep | null> {
  const reported = confirmedOutcome(turn, options.describe);
  if (reported) return reported;
  const choice = turn.input.choice ?? "";
  const call = choice.startsWith(options.prefix)
    ? options.call(choice.slice(options.prefix.length))
    : null;
  return call ? await callWithConfirmation(turn, callTool, call) : null;
}

/** What an agent whose tools arrive later says, each in en, rw and fr (the pack's texts). */
export interface LaterToolsTexts {
  /** Plainly: what it will be able to do, and that it cannot yet. */
  soon: Record<Language, string>;
  /** The button's title (at most 20 characters) that hands the conversation to a person. */
  person: Record<Language, string>;
}

/**
 * The offline flow of an agent whose tools do not exist yet: it never
 * pretends; it says what it will do and offers a person (the hand-off agent,
 * which raises a ticket with `notify_staff`).
 */
export function laterToolsFlow(texts: LaterToolsTexts): OfflineFlow {
  return (turn) =>
    Promise.resolve({
      replies: [{
        text: texts.soon[turn.language],
        ...(turn.handoff
          ? { buttons: [{ id: `agent:${turn.handoff}`, title: texts.person[turn.language] }] }
          : {}),
      }],
    });
}
