/**
 * Measures what each hand-written rule of the route decision
 * (shared/agent/route_decision.ts) is worth beside the trained model: for each
 * rule, the decision is rebuilt without it (a copy of the module with the rule
 * switched off, so production code carries no switch) and scored on the dev
 * sets only (first_messages, the harder dev split, every `*_dev` half) and the
 * tuned conversations' turns. It prints, per rule, the change in right routes
 * per language, in safety messages handed to a person, in ordinary messages
 * handed off as unsafe, and in conversation turns. Blind sets are never read
 * here.
 *
 * A rule whose patch no longer matches the module's text fails the run: the
 * table then measures a rule that is gone, and the list must be mended.
 *
 * Run: `deno run -A scripts/ablate_routing.ts [--only name,name]`
 *
 * @module
 */
import { platformRouter } from "@shared/platform/router.ts";
import { decideRoute } from "@shared/agent/route_decision.ts";
import {
  type Decide,
  loadConversations,
  loadDevMessages,
  scoreConversations,
  type Scored,
  scoreFirstMessages,
} from "../testing/routing_eval/routing_eval.ts";
import { cliOrExit, parseCli } from "./_cli.ts";

/** One rule switched off: the text replaced in route_decision.ts, and by what. */
export interface Ablation {
  /** A short name for the table. */
  name: string;
  /** What the rule does, in a few words. */
  does: string;
  /** Whether it hands danger to a person (never deleted without equal safety figures). */
  safety?: boolean;
  /** Each `[from, to]`: `from` must occur exactly once in the module. */
  patches: readonly (readonly [string, string])[];
}

/** The rules measured, in the decision's order. */
export const ABLATIONS: readonly Ablation[] = [
  {
    name: "safety_concern",
    does: "safety.ts lexicon of danger, violence, theft",
    safety: true,
    patches: [["  if (safetyConcern(text) !== null) return true;", ""]],
  },
  {
    name: "cry_for_help",
    does: "'urgent'/'vite' alone or with only 'help', 'please', 'me'",
    safety: true,
    patches: [[
      "  if (!words.some((word) => URGENT_WORDS.has(word))) return false;",
      "  if (words.length > 0) return false;",
    ]],
  },
  {
    name: "request_topic",
    does: "first message read by its request (all of requestTopic)",
    patches: [[
      "    ? requestTopic(text, words, context, threshold, agents.frontDesk)",
      "    ? topicOf(text, words, context, threshold, agents.frontDesk)",
    ]],
  },
  {
    name: "request_landmarks",
    does: "first message read without its landmarks",
    patches: [["restWords.length === 0 || isContentFree(restWords)", "true"]],
  },
  {
    name: "request_object",
    does: "the object of 'I want …' read alone",
    patches: [["  const object = newRequest(text);\n", "  const object = null;\n"]],
  },
  {
    name: "object_head",
    does: "the object's first three words read alone",
    patches: [[
      "    OPENS_WITH_VERB.test(objectWords[0])\n  ) return whole;",
      "    true\n  ) return whole;",
    ]],
  },
  {
    name: "greeting_prefix",
    does: "the request after a greeting read alone",
    patches: [[
      "  if (rest.length === words.length || rest.length === 0 || isContentFree(rest)) return whole;",
      "  return whole;",
    ]],
  },
  {
    name: "trip_names",
    does: "origin and destination named: a ride",
    patches: [[
      "        namesTrip(text, context.tripEnds ?? context.places) &&",
      "        false &&",
    ]],
  },
  {
    name: "trip_hires",
    does: "a vehicle hired to somewhere: a ride",
    patches: [["      hiresRide(text, trips, context, agents.frontDesk))", "      false)"]],
  },
  {
    name: "greeting_only",
    does: "a greeting alone: the front desk",
    patches: [[
      "  if (isGreetingOnly(words)) {",
      "  if (false) {",
    ]],
  },
  {
    name: "closing_only",
    does: "a goodbye or 'that's all': the front desk",
    patches: [["  if (isClosing(text)) return frontDeskAnswers();", ""]],
  },
  {
    name: "vehicle_trade",
    does: "a vehicle bought or sold: Buy & Sell",
    patches: [[
      "  const trade = vehicleTradeTopic(text, whole, context, threshold);",
      "  const trade = null;",
    ]],
  },
  {
    name: "content_free",
    does: "function words only ('i need'): clarify",
    patches: [[
      "    routable === null || confidence < threshold || isContentFree(words) ||",
      "    routable === null || confidence < threshold ||",
    ]],
  },
  {
    name: "unnamed_thing",
    does: "help with 'something': clarify",
    patches: [[
      "    asksForUnnamedThing(withoutGreetings(words)) || pointsBackOnly(withoutGreetings(words))",
      "    pointsBackOnly(withoutGreetings(words))",
    ]],
  },
  {
    name: "points_back",
    does: "'is it still there?': clarify",
    patches: [[
      "    asksForUnnamedThing(withoutGreetings(words)) || pointsBackOnly(withoutGreetings(words))",
      "    asksForUnnamedThing(withoutGreetings(words))",
    ]],
  },
  {
    name: "change_of_mind",
    does: "mid-flow 'actually …' switches",
    patches: [[
      "  for (const marker of CHANGE_OF_MIND_KEYS) {",
      "  for (const marker of [] as string[]) {",
    ]],
  },
  {
    name: "names_option",
    does: "mid-flow: naming an offered option stays",
    patches: [["!paysOut && namesAnOption(words, state.offered ?? [])", "!paysOut && false"]],
  },
  {
    name: "holds",
    does: "mid-flow: the agent's own `holds` keeps it",
    patches: [["if (changeOfMind === null && agents.holds?.(currentAgent, text))", "if (false)"]],
  },
  {
    name: "pays_elsewhere",
    does: "mid-flow: paying another thing goes to payments",
    patches: [[
      "    const paysOut = paid !== null && paysElsewhere(paid, currentAgent, context);",
      "    const paysOut = false;",
    ]],
  },
  {
    name: "flow_step",
    does: "mid-flow: the flow's own next step stays",
    patches: [["asked === null && inFlow && flowStep(text) !== null", "false"]],
  },
  {
    name: "landmarks_in_flow",
    does: "mid-flow: read without landmarks",
    patches: [[
      "      ? withoutLandmarksTopic(text, words, context, threshold, agents.frontDesk)",
      "      ? topicOf(text, words, context, threshold, agents.frontDesk)",
    ]],
  },
  {
    name: "new_request_switch",
    does: "mid-flow: a sure new request leaves",
    patches: [[
      "      asked !== null && words.length >= 3 && !isContentFree(wordsOf(asked)) &&",
      "      false &&",
    ]],
  },
  {
    name: "short_bare_request",
    does: "mid-flow: a short sure request leaves",
    patches: [[": (elsewhere(placed) && shortBareRequest ? placed : null);", ": null;"]],
  },
];

const MODULE = new URL("../shared/agent/route_decision.ts", import.meta.url);

/**
 * The decision with `ablation`'s rule switched off: route_decision.ts copied
 * with its patches applied and its relative imports made absolute, then
 * imported from a temporary directory (removed after).
 *
 * @throws {Error} when a patch's text does not occur exactly once.
 */
export async function ablatedDecide(ablation: Ablation): Promise<Decide> {
  let source = await Deno.readTextFile(MODULE);
  for (const [from, to] of ablation.patches) {
    const count = source.split(from).length - 1;
    if (count !== 1) {
      throw new Error(
        `Cannot ablate ${ablation.name} as its text must occur once in route_decision.ts: current count is ${count}`,
      );
    }
    source = source.replace(from, () => to);
  }
  source = source.replaceAll(
    /from "\.\/([^"]+)"/g,
    (_, path: string) => `from "${new URL(path, MODULE).href}"`,
  );
  const dir = await Deno.makeTempDir({ prefix: "ablate_routing_" });
  try {
    const file = `${dir}/${ablation.name}.ts`;
    await Deno.writeTextFile(file, source);
    const module = await import(new URL(`file://${file}`).href);
    return module.decideRoute as Decide;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** What one decision scores on the dev sets. */
interface Figures {
  right: Record<string, number>;
  total: Record<string, number>;
  safetyHanded: number;
  safetyTotal: number;
  falseAlarms: number;
  turnsRight: number;
  turns: number;
}

const LANGUAGES = ["en", "rw", "fr"] as const;

function figures(first: Scored[], turns: Scored[], handoff: string): Figures {
  const right: Record<string, number> = {};
  const total: Record<string, number> = {};
  for (const language of LANGUAGES) {
    const own = first.filter((row) => row.language === language);
    right[language] = own.filter((row) => row.got === row.expect).length;
    total[language] = own.length;
  }
  const unsafe = first.filter((row) => row.safety);
  return {
    right,
    total,
    safetyHanded: unsafe.filter((row) => row.urgent).length,
    safetyTotal: unsafe.length,
    falseAlarms: first.filter((row) => !row.safety && row.urgent && row.expect !== handoff).length,
    turnsRight: turns.filter((row) => row.got === row.expect).length,
    turns: turns.length,
  };
}

if (import.meta.main) {
  const args = cliOrExit({
    name: "ablate_routing",
    usage: "Usage: deno run -A scripts/ablate_routing.ts [--only name,name]",
  }, () => parseCli(Deno.args, { options: { only: { type: "string" } } }).values);
  const only = args.only?.split(",");
  const context = platformRouter();
  const handoff = context.agents.handoff;
  const messages = await loadDevMessages(handoff);
  // Tuned conversations only: the held-out ones are never read turn by turn.
  const conversations = (await loadConversations()).filter((c) => !c.heldOut);
  const score = (decide: Decide) =>
    figures(
      scoreFirstMessages(messages, context, decide),
      scoreConversations(conversations, context, decide),
      handoff,
    );
  const base = score(decideRoute);
  const pct = (part: number, whole: number) => (100 * part / whole).toFixed(1);
  console.log(
    `Dev first messages: ${
      LANGUAGES.map((l) =>
        `${l} ${base.right[l]}/${base.total[l]} (${pct(base.right[l], base.total[l])}%)`
      ).join(", ")
    }; safety ${base.safetyHanded}/${base.safetyTotal}; ordinary as unsafe ${base.falseAlarms}; ` +
      `conversation turns ${base.turnsRight}/${base.turns}\n`,
  );
  console.log(
    "| rule | does | en Δ | rw Δ | fr Δ | safety handed Δ | false alarms Δ | turns Δ |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
  for (const ablation of ABLATIONS) {
    if (only && !only.includes(ablation.name)) continue;
    const got = score(await ablatedDecide(ablation));
    const cells = LANGUAGES.map((l) => {
      const delta = got.right[l] - base.right[l];
      return `${signed(delta)} (${signed(Number(pct(delta, base.total[l])))} pts)`;
    });
    console.log(
      `| ${ablation.name}${ablation.safety ? " (safety)" : ""} | ${ablation.does} | ${
        cells.join(" | ")
      } | ${signed(got.safetyHanded - base.safetyHanded)} | ${
        signed(got.falseAlarms - base.falseAlarms)
      } | ${signed(got.turnsRight - base.turnsRight)} |`,
    );
  }
}
