/**
 * A scenario's scripted model: the answers a scenario file gives for the
 * model (`model:` steps), served by the loopback OpenAI-compatible server
 * (`openai_server.ts`) in the real wire format, so a scenario runs through
 * the agent's model path — the model picks tools from the agent's allowlist,
 * the pipeline checks them, confirmations pause the graph — with no model
 * key and the same answers every run.
 *
 * Steps are consumed in order by the agent's requests (those offering tools).
 * A routing request (the router asking which agent, no tools offered; it
 * asks only when its classifier is unsure) consumes a `route` step when one
 * is next; otherwise it gets an answer the router cannot read, so the
 * offline routing decision stands. A `route` step the router never asks for
 * is off script.
 *
 * Arguments and text may quote earlier tool results of the conversation as
 * `{{tool.path}}` (e.g. `{{order_create.order_id}}`, `{{ride_request.fare.estimate}}`;
 * the tool by its provider name): the latest successful result of that tool
 * in the messages the model was sent. A string that is only a placeholder
 * takes the value's type.
 *
 * Anything off script (a tool the agent is not offered, a placeholder with
 * no value, a request after the last step) is recorded in `problems` and
 * answered with an HTTP error, so the run fails instead of quietly falling
 * back to the offline flow.
 *
 * @module
 */
import type { ChatCompletionRequestBody, Script, ScriptStep } from "./openai_server.ts";

/** One scripted answer of the model. */
export type ModelStep =
  /** Calls a tool with these arguments. */
  | { call: string; args: Record<string, unknown> }
  /** Answers the user with this text. */
  | { say: string }
  /** Answers the router: this agent, fully confident. */
  | { route: string };

/** A script over {@link ModelStep}s and what went off script. */
export interface ScriptedModel {
  /** The script for `startScriptedOpenAI`. */
  script: Script;
  /** What went off script, each naming the request. */
  problems: string[];
  /** Steps not consumed yet. */
  remaining(): number;
}

type Message = ChatCompletionRequestBody["messages"][number];

// `{{tool.path.to.value}}`: the tool's provider name (no dots), then the path in its data.
const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\.([A-Za-z0-9_.]+)\s*\}\}/g;
const ONLY_PLACEHOLDER = /^\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\.([A-Za-z0-9_.]+)\s*\}\}$/;

/** The latest successful result's data per tool, from the conversation sent. */
function resultsOf(messages: readonly Message[]): Map<string, unknown> {
  const names = new Map<string, string>();
  const results = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        if (call.type === "function") names.set(call.id, call.function.name);
      }
    } else if (message.role === "tool" && typeof message.content === "string") {
      const name = names.get(message.tool_call_id);
      try {
        const result = JSON.parse(message.content) as { ok?: boolean; data?: unknown };
        if (name && result.ok === true) results.set(name, result.data);
      } catch {
        // Not a tool result we wrote: nothing to quote.
      }
    }
  }
  return results;
}

// `{{kigali.today}}`, `{{kigali.tomorrow}}`: the calendar date in Kigali (UTC+2, no daylight
// saving), as a model reads it from the date in its prompt ("tomorrow at 7pm").
function kigaliDate(days: number): string {
  return new Date(Date.now() + 2 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}
// Days from today (in Kigali) to the next Monday, 1 to 7: a weekday every business is open,
// whatever day the tests run on.
function daysToNextMonday(): number {
  const weekday = new Date(Date.now() + 2 * 3_600_000).getUTCDay();
  return (8 - weekday) % 7 || 7;
}
const KIGALI: Record<string, () => string> = {
  today: () => kigaliDate(0),
  tomorrow: () => kigaliDate(1),
  day_after_tomorrow: () => kigaliDate(2),
  next_monday: () => kigaliDate(daysToNextMonday()),
};

/**
 * `text` with its `{{kigali.today}}`, `{{kigali.tomorrow}}`,
 * `{{kigali.day_after_tomorrow}}` and `{{kigali.next_monday}}` replaced by Kigali's calendar dates: what a
 * scenario's user types ("{{kigali.tomorrow}} 22:00") and where its clock goes.
 */
export function fillKigaliDates(text: string): string {
  return text.replace(
    /\{\{kigali\.([a-z_]+)\}\}/g,
    (whole, name: string) => KIGALI[name]?.() ?? whole,
  );
}

function lookup(results: Map<string, unknown>, tool: string, path: string): unknown {
  if (tool === "kigali" && !results.has(tool)) return KIGALI[path]?.();
  let value = results.get(tool);
  for (const key of path.split(".")) {
    value = value && typeof value === "object"
      ? (value as Record<string, unknown>)[key]
      : undefined;
  }
  return value;
}

/**
 * Builds the script of a scenario's model steps.
 *
 * @param steps The answers, in order.
 */
export function scriptedModel(steps: readonly ModelStep[]): ScriptedModel {
  const queue = [...steps];
  const problems: string[] = [];
  const refuse = (problem: string): ScriptStep => {
    problems.push(problem);
    return { status: 400, error: problem, headers: { "x-should-retry": "false" } };
  };

  const script: Script = (body, { index }) => {
    const offered = new Set(
      (body.tools ?? []).flatMap((tool) => tool.type === "function" ? [tool.function.name] : []),
    );
    const next = queue[0];
    if (offered.size === 0) {
      // The router asks which agent: a route step answers, anything else leaves it offline.
      if (next && "route" in next) {
        queue.shift();
        return { content: JSON.stringify({ agent: next.route, confidence: 1 }) };
      }
      return { content: "(no routing opinion)" };
    }
    if (!next) return refuse(`model request ${index}: the script has no step left`);
    if ("route" in next) {
      return refuse(`model request ${index}: the agent asked, but the next step routes`);
    }
    queue.shift();
    const results = resultsOf(body.messages);
    const missing: string[] = [];
    const fill = (value: unknown): unknown => {
      if (typeof value === "string") {
        const whole = ONLY_PLACEHOLDER.exec(value);
        if (whole) {
          const found = lookup(results, whole[1], whole[2]);
          if (found === undefined) missing.push(`${whole[1]}.${whole[2]}`);
          return found;
        }
        return value.replace(PLACEHOLDER, (_all, tool: string, path: string) => {
          const found = lookup(results, tool, path);
          if (found === undefined) missing.push(`${tool}.${path}`);
          return String(found);
        });
      }
      if (Array.isArray(value)) return value.map(fill);
      if (value && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item)]));
      }
      return value;
    };
    if ("say" in next) {
      const content = fill(next.say) as string;
      return missing.length
        ? refuse(`model request ${index}: no earlier result for ${missing.join(", ")}`)
        : { content };
    }
    if (!offered.has(next.call)) {
      return refuse(
        `model request ${index}: ${next.call} is not among the agent's tools (${
          [...offered].sort().join(", ")
        })`,
      );
    }
    const args = fill(next.args);
    return missing.length
      ? refuse(`model request ${index}: no earlier result for ${missing.join(", ")}`)
      : { tool_calls: [{ name: next.call, arguments: args }] };
  };
  return { script, problems, remaining: () => queue.length };
}
