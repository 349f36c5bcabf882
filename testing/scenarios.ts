/**
 * A tau-bench-style scenario harness: a scenario is a multi-turn WhatsApp
 * conversation (what the user says, taps and shares, and what other parties
 * such as vendors answer) plus the END STATE expected in the database. Each
 * run plays the turns as signed deliveries to the real webhook over HTTP on
 * a fresh seeded database, then checks every expectation. A suite runs each
 * scenario k times and reports pass^k (the share of scenarios that passed all
 * k runs) and pass@1 (the share of runs that passed).
 *
 * Scenario files live in `config/scenarios/*.yaml`; see its README.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import { type Backend, leaseTestDatabase } from "./db.ts";
import { createTestRuntime, type TestRuntime } from "./runtime.ts";
import {
  messageDelivery,
  newWamid,
  type SimulatedContent,
} from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createAgentChannel } from "@shared/platform/whatsapp.ts";
import { SIGNATURE_HEADER, signCallback } from "@shared/packs/payments/callback_signature.ts";
import { createPaymentsApp } from "../supabase/functions/payments/app.ts";
import { paymentsSettings } from "./payments.ts";
import { createGraphMediaSource } from "@shared/channels/whatsapp/media.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { OCR_ENGINE } from "@shared/capabilities/document_reading/ocr_engine.ts";
import { rememberReadings } from "./ocr.ts";
import { createTesseractEngine } from "@shared/capabilities/document_reading/tesseract_engine.ts";
import { readFixture, type SETS } from "./documents/generate.ts";
import { type FakeGraph, startFakeGraph } from "./graph_server.ts";
import { startTestStorage, type TestStorage } from "./storage.ts";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { createOpenAIModel } from "@shared/agent/model.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { type ScriptedOpenAI, startScriptedOpenAI } from "./openai_server.ts";
import { fillKigaliDates, type ModelStep, scriptedModel } from "./scripted_model.ts";
import { startVideosServer, type VideosServer } from "./videos_server.ts";
import { createOpenAIVideoProvider } from "@shared/packs/video/openai_videos.ts";
import { VIDEO_PROVIDER } from "@shared/packs/video/video_provider.ts";
import { forwardedRequest } from "./serve_function.ts";
import { ROOMY_PACKS } from "./roomy_packs.ts";

const PHONE = /^\+[1-9][0-9]{7,14}$/;
const phone = z.string().regex(PHONE, 'must be a phone number like "+250788000001"');

const TurnSchema = z.strictObject({
  say: z.string().min(1).optional(),
  tap: z.union([z.string().min(1), z.number().int().positive()]).optional(),
  location: z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().optional(),
    address: z.string().optional(),
  }).optional(),
  as: phone.optional(),
  settle: z.enum(["SUCCESSFUL", "FAILED", "INSUFFICIENT_FUNDS", "EXPIRED"]).optional(),
  clock: z.string().regex(
    /^(\+\d{1,4}m|(\d{4}-\d{2}-\d{2}|\{\{kigali\.[a-z_]+\}\})T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2}))$/,
    'must be minutes from now ("+2m") or a time with its offset, e.g. "{{kigali.tomorrow}}T08:00:00+02:00"',
  ).optional(),
  image: z.strictObject({
    fixture: z.string().regex(
      /^(dev|heldout|families|scenarios)\/[A-Za-z0-9_.-]+\.(jpg|png)$/,
      'must name a generated document fixture like "dev/01_vehicle_registration_clean.jpg"',
    ),
    caption: z.string().optional(),
    arrived: z.number().min(0).max(1).optional(),
  }).optional(),
}).superRefine((turn, ctx) => {
  const kinds = (["say", "tap", "location", "settle", "image", "clock"] as const).filter((key) =>
    turn[key] !== undefined
  );
  if (turn.as !== undefined) {
    if ((turn.say === undefined && turn.tap === undefined) || kinds.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: 'a turn with "as" needs "say" or "tap" and nothing else',
      });
    }
  } else if (kinds.length !== 1) {
    ctx.addIssue({
      code: "custom",
      message:
        `a turn has exactly one of say, tap, location, settle, image, clock (or as + say/tap); found ${
          kinds.length ? kinds.join(", ") : "none"
        }`,
    });
  }
});

const ExpectationSchema = z.strictObject({
  label: z.string().min(1).optional(),
  sql: z.string().min(1).optional(),
  params: z.array(z.unknown()).optional(),
  equals: z.array(z.unknown()).optional(),
  count: z.number().int().nonnegative().optional(),
  contains: z.string().min(1).optional(),
  choices: z.array(z.string().min(1)).min(1).optional(),
}).superRefine((item, ctx) => {
  if (item.sql === undefined && item.contains === undefined && item.choices === undefined) {
    ctx.addIssue({
      code: "custom",
      message: 'an expectation needs "sql", "contains" or "choices"',
    });
  }
  for (const key of ["params", "equals", "count"] as const) {
    if (item[key] !== undefined && item.sql === undefined) {
      ctx.addIssue({ code: "custom", path: [key], message: `"${key}" needs "sql"` });
    }
  }
});

const ModelStepSchema = z.union([
  z.strictObject({ call: z.string().min(1), args: z.record(z.string(), z.unknown()) }),
  z.strictObject({ say: z.string().min(1) }),
  z.strictObject({ route: z.string().min(1) }),
]);

const ScenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  user: z.strictObject({ phone, name: z.string().min(1).optional() }),
  mode: z.enum(["deterministic", "model", "scripted", "any"]).default("any"),
  model: z.array(ModelStepSchema).min(1).optional(),
  env: z.record(
    z.string().regex(/^[A-Z][A-Z0-9_]*$/, "must be an environment variable name"),
    z.string(),
  ).optional(),
  turns: z.array(TurnSchema).min(1),
  expect: z.array(ExpectationSchema).min(1),
}).superRefine((scenario, ctx) => {
  if ((scenario.mode === "scripted") !== (scenario.model !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["model"],
      message: 'a scenario has "model" steps exactly when its mode is "scripted"',
    });
  }
});

/** One turn of a scenario. */
export type ScenarioTurn =
  /** The user writes. */
  | { say: string }
  /** The user taps a button (or list row) of the latest message that offered choices. */
  | { tap: string | number }
  /** The user shares a location. */
  | { location: { latitude: number; longitude: number; name?: string; address?: string } }
  /** Another party (e.g. a vendor) writes, from this phone number. */
  | { as: string; say: string }
  /** Another party taps a button (or list row) of the latest message to them that offered choices. */
  | { as: string; tap: string | number }
  /**
   * The provider's signed settlement callback for the user's latest pending
   * charge, or, with none pending, their latest charge (money arriving late).
   */
  | { settle: "SUCCESSFUL" | "FAILED" | "INSUFFICIENT_FUNDS" | "EXPIRED" }
  /**
   * Time passes: the platform's clock moves forward to this time (Kigali
   * dates as placeholders) or by `+N` minutes, and its sweep runs, as pg_cron
   * would run it then, and the worker's (the packs' sweeps).
   */
  | { clock: string }
  /**
   * The user sends a photo: a generated document fixture
   * (`testing/documents/fixtures/<set>/<file>`), downloaded through the
   * production two-step Graph path from a loopback Graph server and saved to
   * a loopback Storage; documents are read with tesseract. `arrived` is the
   * share of the file's bytes that came through (a download cut off in
   * transit); 0 sends an empty file.
   */
  | { image: { fixture: string; caption?: string; arrived?: number } };

/** One check of the end state. */
export interface ScenarioExpectation {
  /** Names the check in failures; the SQL or the expected text by default. */
  label?: string;
  /** A select returning rows. Alone: at least one row. */
  sql?: string;
  /** Parameters `$1`, `$2`… of `sql`. */
  params?: unknown[];
  /** The rows, deep-equal and in order (bigints as numbers, dates as ISO strings). */
  equals?: unknown[];
  /** How many rows. */
  count?: number;
  /** Text the last message sent to the user must contain. */
  contains?: string;
  /**
   * The buttons or list rows of the last message to the user that offered
   * any, in order, as the user reads them: the title, and a row's
   * description in brackets after it (`"Grilled chicken… (4,500 RWF / plate)"`).
   */
  choices?: string[];
}

/**
 * Which conversation handlers a scenario is meant for: the offline flows
 * (`deterministic`), a configured model (`model`), both (`any`), or the
 * agent's model path answered by the scenario's own `model` steps from a
 * loopback OpenAI-compatible server (`scripted`; needs no key, so it runs
 * with the offline suite).
 */
export type ScenarioMode = "deterministic" | "model" | "scripted" | "any";

/** A checked scenario. */
export interface Scenario {
  /** Unique name. */
  name: string;
  /** What it covers. */
  description?: string;
  /** The user who talks. */
  user: { phone: string; name?: string };
  /** Which handlers it is meant for. @default "any" */
  mode: ScenarioMode;
  /** The scripted model's answers (mode `scripted`); see `testing/scripted_model.ts`. */
  model?: ModelStep[];
  /** Environment variables set during each run (a pack's setting), restored after it. */
  env?: Record<string, string>;
  /** The conversation, in order. */
  turns: ScenarioTurn[];
  /** The expected end state. */
  expect: ScenarioExpectation[];
  /** The file it came from, when loaded from one. */
  source?: string;
}

/** Raised when scenario files are invalid; `issues` lists every problem with its file and path. */
export class ScenarioFileError extends Error {
  /** Each problem, prefixed with its file and path. */
  readonly issues: string[];

  /** Creates the error from its issues. */
  constructor(issues: string[]) {
    super(`Invalid scenario file(s):\n  - ${issues.join("\n  - ")}`);
    this.name = "ScenarioFileError";
    this.issues = issues;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) =>
      typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
    "",
  ) || "(root)";
}

/**
 * Parses and checks one scenario file's YAML text.
 *
 * @param text The YAML.
 * @param source Where it came from, for messages and {@link Scenario.source}.
 * @throws {ScenarioFileError} naming the file and the path of every problem.
 */
export function parseScenario(text: string, source = "scenario"): Scenario {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ScenarioFileError([`${source}: YAML syntax: ${(error as Error).message}`]);
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ScenarioFileError(
      parsed.error.issues.map((issue) => `${source}: ${formatPath(issue.path)}: ${issue.message}`),
    );
  }
  const { turns, expect, description, model, ...rest } = parsed.data;
  return {
    ...rest,
    ...(description === undefined ? {} : { description }),
    ...(model === undefined ? {} : { model: model as ModelStep[] }),
    turns: turns.map((turn): ScenarioTurn => {
      if (turn.as !== undefined) {
        return turn.say !== undefined
          ? { as: turn.as, say: turn.say }
          : { as: turn.as, tap: turn.tap! };
      }
      if (turn.say !== undefined) return { say: turn.say };
      if (turn.tap !== undefined) return { tap: turn.tap };
      if (turn.settle !== undefined) return { settle: turn.settle };
      if (turn.clock !== undefined) return { clock: turn.clock };
      if (turn.image !== undefined) return { image: turn.image };
      return { location: turn.location! };
    }),
    expect: expect.map((item) =>
      Object.fromEntries(
        Object.entries(item).filter(([, value]) => value !== undefined),
      ) as ScenarioExpectation
    ),
    source,
  };
}

/** The default scenario folder, `config/scenarios/`. */
export const SCENARIO_DIR: URL = new URL("../config/scenarios/", import.meta.url);

/**
 * Loads every `*.yaml` file of a folder, sorted by file name.
 *
 * @param dir The folder. @default {@link SCENARIO_DIR}
 * @throws {ScenarioFileError} listing every problem of every file, and duplicate names.
 */
export async function loadScenarios(dir: string | URL = SCENARIO_DIR): Promise<Scenario[]> {
  const folder = typeof dir === "string" ? dir.replace(/\/+$/, "") : dir.href.replace(/\/+$/, "");
  const label = dir === SCENARIO_DIR ? "config/scenarios" : typeof dir === "string" ? folder : (
    dir.protocol === "file:" ? decodeURIComponent(dir.pathname).replace(/\/+$/, "") : folder
  );
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && /\.ya?ml$/.test(entry.name)) files.push(entry.name);
  }
  files.sort();
  const scenarios: Scenario[] = [];
  const issues: string[] = [];
  const names = new Map<string, string>();
  for (const file of files) {
    const source = `${label}/${file}`;
    const path = typeof dir === "string" ? `${folder}/${file}` : new URL(file, `${folder}/`);
    try {
      const scenario = parseScenario(await Deno.readTextFile(path), source);
      const previous = names.get(scenario.name);
      if (previous) {
        issues.push(`${source}: name: "${scenario.name}" is already used by ${previous}`);
      }
      names.set(scenario.name, source);
      scenarios.push(scenario);
    } catch (error) {
      if (error instanceof ScenarioFileError) issues.push(...error.issues);
      else throw error;
    }
  }
  if (issues.length) throw new ScenarioFileError(issues);
  return scenarios;
}

/** Options for {@link selectScenarios}. */
export interface SelectScenariosOptions {
  /** The handler kind that will answer: keeps scenarios of this mode and `any`. */
  mode?: "deterministic" | "model";
  /** Keeps scenarios whose name contains this text (case-insensitive). */
  filter?: string;
}

/**
 * The scenarios meant for a handler kind, optionally filtered by name.
 * Scripted-model scenarios bring their own model, so they run with the
 * offline (`deterministic`) suite, not with a configured model.
 */
export function selectScenarios(
  scenarios: readonly Scenario[],
  options: SelectScenariosOptions = {},
): Scenario[] {
  const filter = options.filter?.toLowerCase();
  return scenarios.filter((scenario) =>
    (options.mode === undefined || scenario.mode === "any" || scenario.mode === options.mode ||
      (scenario.mode === "scripted" && options.mode === "deterministic")) &&
    (filter === undefined || scenario.name.toLowerCase().includes(filter))
  );
}

/** Builds the conversation handler of one run, on that run's runtime. */
export type ConversationFactory = (
  runtime: TestRuntime,
) => ConversationHandler | Promise<ConversationHandler>;

/** Options for {@link runScenario}. */
export interface RunScenarioOptions {
  /** Answers the user. @default the channel's default (the buy & sell flow) */
  conversation?: ConversationHandler;
  /** Builds the handler per run, on the run's runtime (wins over `conversation`). */
  createConversation?: ConversationFactory;
  /** The database engine. @default "pglite" */
  backend?: Backend;
}

/** The outcome of one run. */
export interface ScenarioResult {
  /** Whether every turn was processed and every expectation held. */
  passed: boolean;
  /** What went wrong, each naming the turn or expectation. */
  failures: string[];
  /** The turns and the platform's replies, one line each. */
  transcript: string[];
}

const APP_SECRET = "scenario-harness-app-secret";
const CALLBACK_SECRET = "scenario-harness-momo-callback-secret";
const VERIFY_TOKEN = "scenario-harness-verify-token";

interface OutboxRow {
  id: string;
  to_wa_id: string;
  body: Record<string, unknown>;
  wamid: string | null;
}

interface Choice {
  id: string;
  title: string;
  /** A list row's description (its price, unit, time…), shown under the title. */
  description?: string;
  kind: "button_reply" | "list_reply";
}

function textOf(body: Record<string, unknown>): string {
  const text = body.text as { body?: string } | undefined;
  const interactive = body.interactive as { body?: { text?: string } } | undefined;
  const template = body.template as { name?: string } | undefined;
  return text?.body ?? interactive?.body?.text ??
    (template?.name ? `[template ${template.name}]` : "");
}

function choicesOf(body: Record<string, unknown>): Choice[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  if (!action) return [];
  const buttons = (action.buttons ?? []) as Array<{ reply?: { id: string; title: string } }>;
  const sections = (action.sections ?? []) as Array<{
    rows?: Array<{ id: string; title: string; description?: string }>;
  }>;
  return [
    ...buttons.flatMap((button) =>
      button.reply
        ? [{ id: button.reply.id, title: button.reply.title, kind: "button_reply" as const }]
        : []
    ),
    ...sections.flatMap((section) =>
      (section.rows ?? []).map((row) => ({
        id: row.id,
        title: row.title,
        ...(row.description ? { description: row.description } : {}),
        kind: "list_reply" as const,
      }))
    ),
  ];
}

/** A choice as the user reads it: its title, and a row's description in brackets. */
function choiceLabel(choice: Choice): string {
  return choice.description ? `${choice.title} (${choice.description})` : choice.title;
}

/**
 * WhatsApp's limits on an interactive message (the Graph API refuses a
 * message over any of them, so a scenario that sent one would pass on a
 * reply nobody receives): 3 reply buttons of 20 characters, a list's button
 * of 20, 10 rows, section and row titles of 24, row descriptions of 72.
 */
const WHATSAPP_LIMITS = {
  buttons: 3,
  buttonTitle: 20,
  listButton: 20,
  rows: 10,
  sectionTitle: 24,
  rowTitle: 24,
  rowDescription: 72,
} as const;

/**
 * What in an outgoing WhatsApp message body breaks WhatsApp's limits, one
 * line each; none when it fits. Every message a scenario sends is checked.
 */
export function limitProblems(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  if (!action) return [];
  const problems: string[] = [];
  const check = (what: string, text: unknown, max: number) => {
    if (typeof text === "string" && [...text].length > max) {
      problems.push(
        `${what} ${JSON.stringify(text)} has ${[...text].length} characters (max ${max})`,
      );
    }
  };
  const buttons = (action.buttons ?? []) as Array<{ reply?: { title?: string } }>;
  if (buttons.length > WHATSAPP_LIMITS.buttons) {
    problems.push(`${buttons.length} buttons (max ${WHATSAPP_LIMITS.buttons})`);
  }
  for (const button of buttons) {
    check("button title", button.reply?.title, WHATSAPP_LIMITS.buttonTitle);
  }
  check("list button", action.button, WHATSAPP_LIMITS.listButton);
  const sections = (action.sections ?? []) as Array<{
    title?: string;
    rows?: Array<{ title?: string; description?: string }>;
  }>;
  const rows = sections.flatMap((section) => section.rows ?? []);
  if (rows.length > WHATSAPP_LIMITS.rows) {
    problems.push(`${rows.length} list rows (max ${WHATSAPP_LIMITS.rows})`);
  }
  for (const section of sections) {
    check("section title", section.title, WHATSAPP_LIMITS.sectionTitle);
  }
  for (const row of rows) {
    check("row title", row.title, WHATSAPP_LIMITS.rowTitle);
    check("row description", row.description, WHATSAPP_LIMITS.rowDescription);
  }
  return problems;
}

function describeTurn(turn: ScenarioTurn): string {
  if ("as" in turn) {
    return "say" in turn
      ? `as ${turn.as} say ${JSON.stringify(turn.say)}`
      : `as ${turn.as} tap ${JSON.stringify(turn.tap)}`;
  }
  if ("say" in turn) return `say ${JSON.stringify(turn.say)}`;
  if ("tap" in turn) return `tap ${JSON.stringify(turn.tap)}`;
  if ("settle" in turn) return `settle ${turn.settle}`;
  if ("clock" in turn) return `clock ${turn.clock}`;
  if ("image" in turn) return `image ${turn.image.fixture}`;
  return `location ${turn.location.latitude},${turn.location.longitude}`;
}

function describeExpectation(item: ScenarioExpectation): string {
  if (item.label) return item.label;
  if (item.sql) return item.sql.replace(/\s+/g, " ").trim();
  if (item.choices) return `last choices offered are ${JSON.stringify(item.choices)}`;
  return `last message contains ${JSON.stringify(item.contains)}`;
}

/** Rows as plain JSON-like values: bigints as numbers (strings when unsafe), dates as ISO text. */
function normalize(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, normalize(item)]),
    );
  }
  return value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/**
 * Plays one scenario on a fresh seeded database and checks its end state.
 * Everything it opens (database, runtime, HTTP server) is disposed before it
 * resolves; a turn that cannot be played ends the run with a failure.
 */
export async function runScenario(
  scenario: Scenario,
  options: RunScenarioOptions = {},
): Promise<ScenarioResult> {
  const failures: string[] = [];
  const transcript: string[] = [];
  const userWaId = scenario.user.phone.slice(1);
  const db = await leaseTestDatabase(options.backend ?? "pglite");
  let runtime: TestRuntime | undefined;
  let server: Deno.HttpServer | undefined;
  let modelServer: ScriptedOpenAI | undefined;
  const scripted = scenario.model ? scriptedModel(scenario.model) : undefined;
  const pending: Promise<unknown>[] = [];
  const backgroundErrors: unknown[] = [];
  // Photos need a Graph API to download from and an OCR engine: only scenarios that send
  // them start them. Storage is started for every run, as deployed: any turn may issue a
  // document (an insurance certificate once paid, a legal case's summary once filed).
  const photos = scenario.turns.some((turn) => "image" in turn);
  const files = true;
  let storage: TestStorage | undefined;
  let graph: FakeGraph | undefined;
  // Runs repeat the same photos: each is read once per process.
  const ocr = photos ? rememberReadings(createTesseractEngine()) : undefined;
  const savedEnv = Object.keys(scenario.env ?? {}).map((name) => [name, Deno.env.get(name)]);
  let clockOffsetMs = 0;
  let videos: VideosServer | undefined;
  try {
    for (const [name, value] of Object.entries(scenario.env ?? {})) Deno.env.set(name, value);
    if (files) storage = await startTestStorage(db);
    if (photos) graph = await startFakeGraph();
    // The video studio renders on a loopback server speaking OpenAI's videos API, as the dev
    // server does without a key: a staff member's job runs to the delivered clip.
    videos = startVideosServer({ pollsToFinish: 1 });
    runtime = await createTestRuntime(db, {
      packs: ROOMY_PACKS,
      // The real clock until a `clock` turn moves it forward.
      now: () => new Date(Date.now() + clockOffsetMs),
      provide: [
        paymentsSettings(CALLBACK_SECRET),
        ...(storage ? [{ key: FILE_STORE, value: storage.files }] : []),
        ...(ocr ? [{ key: OCR_ENGINE, value: ocr }] : []),
        {
          key: VIDEO_PROVIDER,
          value: createOpenAIVideoProvider({ apiKey: videos.apiKey, baseURL: videos.baseURL }),
        },
      ],
    });
    let conversation: ConversationHandler | undefined;
    if (scripted) {
      // The agent's model path, answered by the scenario's steps from a loopback server.
      modelServer = startScriptedOpenAI({ script: scripted.script });
      const packs = runtime.platform.packs;
      conversation = createAgentHandler(runtime, {
        model: createOpenAIModel({
          apiKey: modelServer.apiKey,
          baseURL: modelServer.baseURL,
          model: "scripted",
        }),
        // A scripted scenario tests what the model's steps do, not the turn's deadline (its own
        // tests, model_turn_test and model_outage_test, hold that): on a loaded CI machine a
        // loopback answer can take longer than the production 10 s, and the turn would then
        // answer "could not finish in time" and the script run out of step.
        modelTurn: { deadlineMs: 120_000 },
        routerFor: (runs) => platformRouter(packs, runs),
      });
    } else {
      conversation = options.createConversation
        ? await options.createConversation(runtime)
        : options.conversation;
    }
    const payments = createPaymentsApp(runtime);
    const channel = createAgentChannel(runtime, {
      appSecret: APP_SECRET,
      verifyToken: VERIFY_TOKEN,
      ...(graph
        ? { media: createGraphMediaSource({ token: graph.token, baseUrl: graph.baseUrl }) }
        : {}),
      background: (task) =>
        void pending.push(task().catch((error) => backgroundErrors.push(error))),
      ...(conversation ? { conversation } : {}),
    });
    server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
      const url = new URL(request.url);
      url.pathname = url.pathname.replace(/^\/functions\/v1/, "");
      if (url.pathname.startsWith("/payments/")) {
        return payments.fetch(forwardedRequest(url, request));
      }
      return channel.app.fetch(forwardedRequest(url, request));
    });
    const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/functions/v1/wa-webhook`;

    const seen = new Set<string>();
    const unsendable: string[] = [];
    const settle = async () => {
      do {
        while (pending.length) await pending.shift();
        await channel.dispatcher.drain();
      } while (pending.length);
    };
    const record = async () => {
      const rows = await db.query<OutboxRow>(
        "select id::text as id, to_wa_id, body, wamid from public.wa_outbox order by seq",
      );
      for (const row of rows) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        const choices = choicesOf(row.body);
        // Row descriptions too: what a person reads there (prices, units) must be checked.
        const suffix = choices.length ? ` [${choices.map(choiceLabel).join(" | ")}]` : "";
        const who = row.to_wa_id === userWaId ? "bot" : `bot → +${row.to_wa_id}`;
        transcript.push(`${who}: ${textOf(row.body)}${suffix}`);
        for (const problem of limitProblems(row.body)) {
          unsendable.push(`the message to +${row.to_wa_id} breaks WhatsApp's limits: ${problem}`);
        }
      }
    };
    const toUser = (waId = userWaId) =>
      db.query<OutboxRow>(
        `select id::text as id, to_wa_id, body, wamid from public.wa_outbox
         where to_wa_id = $1 order by seq`,
        [waId],
      );

    for (const [index, turn] of scenario.turns.entries()) {
      const where = `turn ${index + 1} (${describeTurn(turn)})`;
      let from = userWaId;
      let content: SimulatedContent;
      let contextWamid: string | undefined;
      if ("clock" in turn) {
        const minutes = /^\+(\d+)m$/.exec(turn.clock)?.[1];
        const at = minutes
          ? Date.now() + clockOffsetMs + Number(minutes) * 60_000
          : Date.parse(fillKigaliDates(turn.clock));
        if (Number.isNaN(at) || at < Date.now() + clockOffsetMs) {
          failures.push(`${where}: the clock only moves forward, to a valid time`);
          break;
        }
        clockOffsetMs = at - Date.now();
        transcript.push(`clock: ${new Date(at).toISOString()}`);
        // What pg_cron runs at that time: the packs' schedules (a broadcast falls due), then the
        // worker's sweep (the packs' sweeps: a landlord told of a viewing's change).
        await runtime.platform.sweep();
        await settle();
        await channel.sweep();
        await settle();
        await record();
        if (unsendable.length) {
          failures.push(...unsendable.map((problem) => `${where}: ${problem}`));
          break;
        }
        continue;
      }
      if ("settle" in turn) {
        // The latest charge still waiting; with none, the latest that ended (money arriving
        // after the charge was cancelled or expired).
        const [open] = await db.query<{ momo_ref: string; amount: string | number }>(
          `select momo_ref, amount from public.payments
           where payer_phone = $1 order by status = 'pending' desc, created_at desc limit 1`,
          [scenario.user.phone],
        );
        if (!open) {
          failures.push(`${where}: the user has no charge to settle`);
          break;
        }
        transcript.push(`provider: ${turn.settle} for ${open.momo_ref}`);
        const body = new TextEncoder().encode(JSON.stringify({
          momo_ref: open.momo_ref,
          status: turn.settle,
          provider_txn_id: `scenario-${crypto.randomUUID()}`,
          amount: Number(open.amount),
        }));
        const response = await fetch(url.replace(/wa-webhook$/, "payments/callback"), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [SIGNATURE_HEADER]: await signCallback({ secret: CALLBACK_SECRET, body }),
          },
          body,
        });
        await response.body?.cancel();
        if (response.status !== 200) {
          failures.push(`${where}: the payments callback answered ${response.status}`);
          break;
        }
        await settle();
        // The worker's sweep: the packs' follow-ups of a settled charge (a certificate).
        await channel.sweep();
        await settle();
        await record();
        if (unsendable.length) {
          failures.push(...unsendable.map((problem) => `${where}: ${problem}`));
          break;
        }
        continue;
      }
      // Another party (a vendor, a driver, a venue's staff) says or taps as the user would.
      if ("as" in turn) from = turn.as.slice(1);
      const who = "as" in turn ? turn.as : "user";
      if ("say" in turn) {
        const said = fillKigaliDates(turn.say);
        content = { text: said };
        transcript.push(`${who}: ${said}`);
      } else if ("location" in turn) {
        content = { location: turn.location };
        transcript.push(`user: 📍 ${turn.location.latitude}, ${turn.location.longitude}`);
      } else if ("image" in turn) {
        const [set, file] = turn.image.fixture.split("/") as [keyof typeof SETS, string];
        const mimeType = file.endsWith(".png") ? "image/png" : "image/jpeg";
        const whole = await readFixture(set, file);
        const arrived = turn.image.arrived ?? 1;
        const id = await graph!.addMedia(
          whole.subarray(0, Math.floor(whole.length * arrived)),
          mimeType,
        );
        content = { media: { type: "image", id, mimeType, caption: turn.image.caption } };
        transcript.push(
          `user: 📷 ${turn.image.fixture}${
            turn.image.arrived !== undefined ? ` (${turn.image.arrived * 100}% arrived)` : ""
          }`,
        );
      } else {
        const offered = (await toUser(from)).filter((row) => choicesOf(row.body).length).at(-1);
        if (!offered) {
          failures.push(
            `${where}: no message to ${
              from === userWaId ? "the user" : `+${from}`
            } offered buttons or a list`,
          );
          break;
        }
        const choices = choicesOf(offered.body);
        const tap = String(turn.tap);
        const choice = /^[0-9]+$/.test(tap)
          ? choices[Number(tap) - 1]
          : choices.find((item) => item.id === tap) ??
            choices.find((item) => item.title.toLowerCase() === tap.toLowerCase());
        if (!choice) {
          failures.push(
            `${where}: no such choice; the last message offered ${
              choices.map((item, i) => `${i + 1}. ${item.id} (${item.title})`).join(", ")
            }`,
          );
          break;
        }
        content = choice.kind === "button_reply"
          ? { buttonReply: { id: choice.id, title: choice.title } }
          : { listReply: { id: choice.id, title: choice.title } };
        contextWamid = offered.wamid ?? undefined;
        transcript.push(`${who}: [tap ${choice.title}]`);
      }
      const wamid = newWamid();
      const payload = messageDelivery({
        from,
        wamid,
        contextWamid,
        ...(from === userWaId && scenario.user.name ? { name: scenario.user.name } : {}),
      }, content);
      const body = new TextEncoder().encode(JSON.stringify(payload));
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": await signBody(APP_SECRET, body),
        },
        body,
      });
      await response.body?.cancel();
      if (response.status !== 200) {
        failures.push(`${where}: the webhook answered ${response.status}`);
        break;
      }
      await settle();
      await record();
      if (unsendable.length) {
        failures.push(...unsendable.map((problem) => `${where}: ${problem}`));
        break;
      }
      if (backgroundErrors.length) {
        failures.push(`${where}: processing threw: ${String(backgroundErrors.splice(0)[0])}`);
        break;
      }
      if (scripted?.problems.length) {
        failures.push(`${where}: off the model script: ${scripted.problems.join("; ")}`);
        break;
      }
      const [inbound] = await db.query<{ status: string; last_error: string | null }>(
        "select status, last_error from private.wa_inbound where wamid = $1",
        [wamid],
      );
      if (inbound?.status !== "done") {
        failures.push(
          `${where}: the message was not processed (${inbound?.status ?? "not stored"}${
            inbound?.last_error ? `: ${inbound.last_error}` : ""
          })`,
        );
        break;
      }
    }

    if (!failures.length && scripted?.remaining()) {
      failures.push(`the model script has ${scripted.remaining()} step(s) left unused`);
    }
    if (!failures.length) {
      // Expectations may read the traces (`public.tool_calls`), written in batches: all of them.
      await runtime.platform.traces.flush();
      const last = (await toUser()).at(-1);
      for (const [index, item] of scenario.expect.entries()) {
        const what = `expect[${index}] ${show(describeExpectation(item))}`;
        if (item.contains !== undefined) {
          const text = last ? textOf(last.body) : undefined;
          if (text === undefined) {
            failures.push(`${what}: no message was sent to the user`);
          } else if (!text.includes(item.contains)) {
            failures.push(
              `${what}: the last message does not contain ${JSON.stringify(item.contains)}: ${
                show(text)
              }`,
            );
          }
        }
        if (item.choices !== undefined) {
          const offered = (await toUser()).filter((row) => choicesOf(row.body).length).at(-1);
          const labels = offered ? choicesOf(offered.body).map(choiceLabel) : [];
          if (!isDeepStrictEqual(labels, item.choices)) {
            failures.push(
              `${what}: ${
                offered ? `the last choices offered were ${show(labels)}` : "none were offered"
              }`,
            );
          }
        }
        if (item.sql === undefined) continue;
        let rows: unknown[];
        try {
          rows = normalize(await db.query(item.sql, item.params ?? [])) as unknown[];
        } catch (error) {
          failures.push(`${what}: the query failed: ${(error as Error).message}`);
          continue;
        }
        if (item.count !== undefined && rows.length !== item.count) {
          failures.push(
            `${what}: expected ${item.count} row(s), got ${rows.length}: ${show(rows)}`,
          );
        }
        if (item.equals !== undefined && !isDeepStrictEqual(rows, normalize(item.equals))) {
          failures.push(`${what}: expected rows ${show(item.equals)}, got ${show(rows)}`);
        }
        if (item.count === undefined && item.equals === undefined && rows.length === 0) {
          failures.push(`${what}: expected at least one row, got none`);
        }
      }
    }
  } catch (error) {
    failures.push(`the run crashed: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await Promise.allSettled(pending);
    await server?.shutdown();
    await modelServer?.close();
    if (runtime) {
      await runtime.platform.notifications.stop();
      await runtime.platform.traces.flush().catch(() => {});
    }
    await ocr?.close?.();
    await graph?.close();
    await videos?.close();
    await storage?.close();
    for (const [name, value] of savedEnv) {
      if (value === undefined) Deno.env.delete(name!);
      else Deno.env.set(name!, value);
    }
    await db.dispose();
  }
  return { passed: failures.length === 0, failures, transcript };
}

/** Options for {@link runSuite}. */
export interface RunSuiteOptions extends RunScenarioOptions {
  /** Runs per scenario, each on a fresh database. */
  k: number;
  /** Called after each run (progress). */
  onRun?: (scenario: Scenario, run: number, result: ScenarioResult) => void;
}

/** One scenario's runs. */
export interface SuiteResult {
  /** The scenario's name. */
  name: string;
  /** Whether each run passed. */
  runs: boolean[];
  /** Each run's full outcome. */
  outcomes: ScenarioResult[];
}

/** What a suite produced. */
export interface SuiteReport {
  /** Per scenario, in order. */
  results: SuiteResult[];
  /** Share of scenarios whose k runs all passed (0 without scenarios). */
  passHatK: number;
  /** Share of all runs that passed (0 without scenarios). */
  passAt1: number;
}

/**
 * Runs each scenario `k` times, one after the other, each on a fresh database.
 *
 * @throws {RangeError} when `k` is not a positive integer.
 */
export async function runSuite(
  scenarios: readonly Scenario[],
  options: RunSuiteOptions,
): Promise<SuiteReport> {
  const { k, onRun, ...runOptions } = options;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer: ${k}`);
  const results: SuiteResult[] = [];
  for (const scenario of scenarios) {
    const outcomes: ScenarioResult[] = [];
    for (let run = 0; run < k; run++) {
      const result = await runScenario(scenario, runOptions);
      outcomes.push(result);
      onRun?.(scenario, run, result);
    }
    results.push({ name: scenario.name, runs: outcomes.map((o) => o.passed), outcomes });
  }
  const total = results.length;
  const allPassed = results.filter((result) => result.runs.every(Boolean)).length;
  const passedRuns = results.reduce((sum, result) => sum + result.runs.filter(Boolean).length, 0);
  return {
    results,
    passHatK: total ? allPassed / total : 0,
    passAt1: total ? passedRuns / (total * k) : 0,
  };
}

// Keyed by the whole scenario: a run on PGlite with the offline flows is deterministic.
const offlinePlays = new Map<string, Promise<ScenarioResult>>();

/**
 * `scenario` played on a fresh PGlite database with the offline flows, at
 * most once per test process: tests that check different things of the same
 * runs (every scenario passes; no reply to a rw or fr user holds English)
 * read one play instead of playing each scenario again.
 */
export function playOffline(scenario: Scenario): Promise<ScenarioResult> {
  const key = JSON.stringify(scenario);
  let play = offlinePlays.get(key);
  if (!play) {
    play = runScenario(scenario, { backend: "pglite" });
    offlinePlays.set(key, play);
  }
  return play;
}

/**
 * Plays `scenarios` once each on PGlite ({@link playOffline}) and throws,
 * naming each failed scenario with its failures and transcript, unless every
 * one passes (and there is at least one).
 */
export async function assertSuitePasses(scenarios: readonly Scenario[]): Promise<void> {
  if (!scenarios.length) throw new Error("pass^k 0, pass@1 0: no scenarios");
  const failed: string[] = [];
  for (const scenario of scenarios) {
    const outcome = await playOffline(scenario);
    if (outcome.passed) continue;
    failed.push(
      `${scenario.name}:\n    ${outcome.failures.join("\n    ")}\n` +
        `  transcript:\n    ${outcome.transcript.join("\n    ")}`,
    );
  }
  if (failed.length) throw new Error(`scenarios failed:\n${failed.join("\n")}`);
}
