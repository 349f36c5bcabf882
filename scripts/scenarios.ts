/**
 * Runs the scenario suite of `config/scenarios/` against the real WhatsApp
 * webhook and prints pass^k and pass@1.
 *
 * ```sh
 * deno task scenarios [--k 3] [--backend pglite|postgres] [--filter NAME] [--model]
 * ```
 *
 * `--model` answers with the LangGraph agent and the OpenAI-compatible model
 * configured by `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL`, and
 * runs the scenarios marked `model` or `any`; without it, the offline flows
 * answer the scenarios marked `deterministic` or `any`, and those marked
 * `scripted` run the agent's model path against their own scripted model.
 *
 * Exit codes: 0 every scenario passed all runs, 1 some failed (or none
 * matched), 2 usage or setup error.
 *
 * @module
 */
import { parseCli, UsageError } from "./_cli.ts";
import type { ChatModel } from "@shared/agent/model.ts";
import { modelFromEnv } from "@shared/agent/model.ts";
import {
  type ConversationFactory,
  loadScenarios,
  runSuite,
  ScenarioFileError,
  selectScenarios,
  type SuiteReport,
} from "@testing/scenarios.ts";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import type { Runtime } from "@shared/platform/env.ts";

const USAGE = `Usage: deno task scenarios [options]

  --k N                 runs per scenario, each on a fresh database (default 1)
  --backend ENGINE      pglite (default) or postgres (needs TEST_DATABASE_URL)
  --filter NAME         only scenarios whose name contains NAME
  --model               answer with the LangGraph agent and the model from
                        OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL
  --dir PATH            scenario folder (default config/scenarios)
  -h, --help            this text`;

/** The agent module `--model` loads; not type-checked, as it may not exist yet. */
const AGENT_MODULE = "@shared/agent/whatsapp_agent.ts";

type AgentModule = {
  createAgentHandler?: (
    runtime: Runtime,
    options: { model: ChatModel },
  ) => ConversationHandler | Promise<ConversationHandler>;
};

/** Loads the agent handler factory; a message instead when it cannot. */
async function agentFactory(model: ChatModel): Promise<ConversationFactory | string> {
  const specifier = AGENT_MODULE;
  let loaded: AgentModule;
  try {
    loaded = await import(specifier);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/Module not found|Cannot find module|ERR_MODULE_NOT_FOUND/i.test(text)) {
      return `--model needs ${AGENT_MODULE} (createAgentHandler), which does not exist yet`;
    }
    return `cannot load ${AGENT_MODULE}: ${text}`;
  }
  const create = loaded.createAgentHandler;
  if (typeof create !== "function") {
    return `${AGENT_MODULE} does not export createAgentHandler(runtime, { model })`;
  }
  return (runtime) => create(runtime, { model });
}

function cell(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** The report as a table, with failures under each failed scenario. */
export function formatReport(report: SuiteReport, k: number): string {
  const width = Math.max(8, ...report.results.map((result) => result.name.length));
  const lines = [`${cell("scenario", width)}  runs`, `${"-".repeat(width)}  ${"-".repeat(k)}`];
  for (const result of report.results) {
    const marks = result.runs.map((passed) => passed ? "✓" : "✗").join("");
    lines.push(`${cell(result.name, width)}  ${marks}`);
    result.outcomes.forEach((outcome, run) => {
      for (const failure of outcome.failures) lines.push(`    run ${run + 1}: ${failure}`);
    });
  }
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const all = report.results.filter((result) => result.runs.every(Boolean)).length;
  lines.push(
    "",
    `pass^${k}: ${percent(report.passHatK)} (${all}/${report.results.length} scenarios)`,
    `pass@1: ${percent(report.passAt1)}`,
  );
  return lines.join("\n");
}

/** Runs the suite from command-line arguments; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseCli(argv, {
      options: {
        k: { type: "string", default: "1" },
        backend: { type: "string", default: "pglite" },
        filter: { type: "string" },
        model: { type: "boolean", default: false },
        dir: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`scenarios: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const k = Number(values.k);
  if (!Number.isInteger(k) || k < 1) {
    console.error(`--k must be a positive integer: ${values.k}`);
    return 2;
  }
  const backend = values.backend;
  if (backend !== "pglite" && backend !== "postgres") {
    console.error(`--backend must be pglite or postgres: ${backend}`);
    return 2;
  }
  if (backend === "postgres" && !Deno.env.get("TEST_DATABASE_URL")) {
    console.error("--backend postgres needs TEST_DATABASE_URL (an admin URL of a server)");
    return 2;
  }

  let createConversation: ConversationFactory | undefined;
  if (values.model) {
    const model = modelFromEnv();
    if (!model) {
      console.error("--model needs OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL)");
      return 2;
    }
    const factory = await agentFactory(model);
    if (typeof factory === "string") {
      console.error(factory);
      return 2;
    }
    createConversation = factory;
  }

  let scenarios;
  try {
    scenarios = selectScenarios(await loadScenarios(values.dir), {
      mode: values.model ? "model" : "deterministic",
      filter: values.filter,
    });
  } catch (error) {
    console.error(error instanceof ScenarioFileError ? error.message : String(error));
    return 2;
  }
  if (!scenarios.length) {
    console.error("No scenario matched.");
    return 1;
  }

  const handler = values.model ? "the LangGraph agent" : "the buy & sell flow";
  console.log(`Running ${scenarios.length} scenario(s) × ${k} on ${backend} with ${handler}…`);
  const report = await runSuite(scenarios, {
    k,
    backend,
    createConversation,
    onRun(scenario, run, result) {
      console.log(`  ${result.passed ? "✓" : "✗"} ${scenario.name} (run ${run + 1}/${k})`);
      if (!result.passed) {
        for (const line of result.transcript) console.log(`      │ ${line}`);
      }
    },
  });
  console.log(`\n${formatReport(report, k)}`);
  return report.results.every((result) => result.runs.every(Boolean)) ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
