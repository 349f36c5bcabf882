/**
 * Sustained load on the whole WhatsApp path of the dev stack: signed webhook
 * deliveries from many new customers at a steady rate, each answered by the
 * agent (its offline flows: no model is called) through the real tools,
 * rate limits, outbox and dispatcher. Not a test: it asserts nothing about
 * timings, it prints them.
 *
 * ```
 * deno task bench:load [--rate 20] [--seconds 75] [--warmup 5] [--grace 30]
 *                      [--postgres URL] [--memory]
 * ```
 *
 * What runs:
 *
 * - **the server** (this process): the dev server (`scripts/dev_server.ts`) on
 *   127.0.0.1, every function mounted as `deno task dev` mounts them. The
 *   database is a new PGlite in a temporary folder (the dev default),
 *   migrated and seeded; `--memory` keeps it in memory; `--postgres URL` (or
 *   `TEST_DATABASE_URL`) uses a new database on that server instead.
 * - **the load** (this file with `--client`, a second process, so the
 *   client's work does not share the server's event loop): open loop, message
 *   i is posted at start + i / rate whatever the server does, each from a
 *   customer the platform has never seen, with a text drawn from a mix of
 *   topics (menu, pharmacy, ride, restaurant, shop, insurance) in English,
 *   Kinyarwanda and French, signed with the local app secret. A fifth of the
 *   measured messages are follow-ups (menu, an option, thanks) from a
 *   customer who wrote five seconds before. The first `--warmup` seconds are
 *   posted the same way but not measured (the server compiles its code paths
 *   on the first messages), and reported apart.
 *
 * Measured for each message, from the moment it was due to be posted:
 *
 * - **queued**: its answer's row lands in `public.wa_outbox` (the turn's
 *   commit; `created_at` is the row's `clock_timestamp()`);
 * - **sent**: the dispatcher hands it to the local WhatsApp adapter
 *   (`sent_at`).
 *
 * A "busy, try again shortly" message (`busy:<wamid>`) is not an answer: it
 * is counted apart, and a message whose only reply is one is unanswered
 * until its retry answers it. After the last post the bench waits up to
 * `--grace` seconds for the stragglers, then counts what is still
 * unanswered. Every `warn` and `error` log line of the server is counted by
 * event, with the distinct error texts.
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { messageDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createLogger, type LogFields, type Logger } from "@shared/runtime/log.ts";
import { openTestDatabase, type TestDatabase } from "@testing/db.ts";
import { startDevServer } from "../scripts/dev_server.ts";
import { localWhatsAppSecrets } from "../scripts/_local_secrets.ts";

const REQUEST_TIMEOUT_MS = 30_000;

/** A first message: its topic, language and text. */
interface Opening {
  topic: string;
  language: "en" | "rw" | "fr";
  text: string;
}

// What new customers write first, in each language; the platform routes each to its agent.
const OPENINGS: Opening[] = [
  { topic: "menu", language: "en", text: "menu" },
  { topic: "menu", language: "rw", text: "Muraho" },
  { topic: "menu", language: "fr", text: "Bonjour" },
  { topic: "pharmacy", language: "en", text: "Do you have vitamin C in Kimihurura?" },
  { topic: "pharmacy", language: "rw", text: "Ndashaka farumasi ifite paracetamol" },
  { topic: "pharmacy", language: "fr", text: "Bonjour, je cherche une pharmacie à Kimihurura" },
  { topic: "ride", language: "en", text: "I need a taxi to Kimironko" },
  { topic: "ride", language: "rw", text: "ndashaka moto ijyana i Remera" },
  { topic: "ride", language: "fr", text: "Je veux un taxi pour aller à Nyamirambo" },
  {
    topic: "restaurant",
    language: "en",
    text: "Hi, I'd like two beef brochettes at Café Nyamirambo",
  },
  { topic: "restaurant", language: "rw", text: "Ndashaka kurya, mfite inzara" },
  { topic: "restaurant", language: "fr", text: "Je voudrais réserver une table pour 4 demain" },
  { topic: "shop", language: "en", text: "I want to buy 2 kg of sugar and rice" },
  { topic: "shop", language: "fr", text: "Bonjour, je voudrais faire des courses" },
  { topic: "insurance", language: "rw", text: "Ndashaka ubwishingizi bw'imodoka" },
];

// What some customers write a few seconds after their first answer (a fifth of the messages):
// back to the menu, an option's number, thanks.
const FOLLOW_UPS = ["menu", "1", "Murakoze", "merci", "thanks", "2"];

/** How many seconds after its first message a customer's follow-up comes. */
const FOLLOW_UP_AFTER_S = 5;

/** What the client process measured. */
interface ClientResult {
  /** For each message, when it was due (epoch ms). */
  due: number[];
  /** For each message, the webhook's HTTP status (or the error's name). */
  statuses: string[];
  /** Seconds from the first due time to the last answer. */
  seconds: number;
}

// --- Client (a separate process) ----------------------------------------------

async function runClient(options: { url: string; file: string; rate: number }) {
  const plan = JSON.parse(await Deno.readTextFile(options.file)) as Array<[string, string]>;
  const encoder = new TextEncoder();
  const items = plan.map(([body, signature]) => ({ body: encoder.encode(body), signature }));
  const due = new Array<number>(items.length);
  const statuses = new Array<string>(items.length);
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 64 });
  async function post(index: number): Promise<void> {
    try {
      const response = await fetch(options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": items[index].signature,
        },
        body: items[index].body,
        client,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      statuses[index] = String(response.status);
    } catch (error) {
      statuses[index] = error instanceof Error ? error.name : "error";
    }
  }
  const start = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let index = 0; index < items.length; index++) {
    const at = start + (index * 1000) / options.rate;
    const wait = at - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // Wall-clock time, comparable with the database's clock_timestamp() on this machine.
    due[index] = performance.timeOrigin + at;
    const request = post(index);
    inFlight.add(request);
    request.finally(() => inFlight.delete(request));
  }
  await Promise.all(inFlight);
  client.close();
  const result: ClientResult = { due, statuses, seconds: (performance.now() - start) / 1000 };
  return result;
}

// --- Server side ----------------------------------------------------------------

/** Counts warn and error lines by event and keeps their distinct texts. */
function countingLogger(): Logger & {
  counts: Map<string, number>;
  texts: Map<string, number>;
} {
  const counts = new Map<string, number>();
  const texts = new Map<string, number>();
  const inner = createLogger({ quiet: true, write: () => {} });
  const count = (level: string) => (event: string, fields: LogFields = {}) => {
    const key = `${level} ${event}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const text = String(fields.error ?? fields.reason ?? fields.code ?? "").slice(0, 240);
    if (text) texts.set(`${key}: ${text}`, (texts.get(`${key}: ${text}`) ?? 0) + 1);
  };
  return { ...inner, counts, texts, warn: count("warn"), error: count("error") };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number) => Number.isNaN(v) ? "-" : `${v.toFixed(0)} ms`;
  return `median ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, p99 ${
    f(percentile(sorted, 99))
  }, max ${f(sorted.at(-1) ?? NaN)}`;
}

interface Answer {
  wamid: string;
  queued_ms: number;
  sent_ms: number | null;
}

type QueryFn = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

// Each message's answer: its turn's first reply (`reply:<wamid>:0`); a "busy" notice is not one.
async function answers(query: QueryFn, run: string): Promise<Answer[]> {
  return await query<Answer>(
    `select substring(idempotency_key from '^reply:(.*):0$') as wamid,
            extract(epoch from created_at) * 1000 as queued_ms,
            extract(epoch from sent_at) * 1000 as sent_ms
       from public.wa_outbox
      where idempotency_key like $1 and idempotency_key like '%:0'`,
    [`reply:wamid.load.${run}.%`],
  );
}

function loadAverage(): string {
  try {
    return Deno.loadavg().map((n) => n.toFixed(1)).join(" ");
  } catch {
    return "n/a";
  }
}

/** The plan: every message in posting order, signed, and what the report needs of each. */
interface Plan {
  deliveries: Array<[string, string]>;
  wamids: string[];
  senders: string[];
  /** The opening's topic, "follow-up", or "warm-up" (posted first, not measured). */
  topics: string[];
}

async function buildPlan(options: {
  rate: number;
  seconds: number;
  warmupSeconds: number;
  appSecret: string;
}): Promise<Plan> {
  const { rate } = options;
  const warm = Math.round(rate * options.warmupSeconds);
  const count = warm + Math.round(rate * options.seconds);
  const run = crypto.randomUUID().slice(0, 6);
  // New customers: numbers no seed uses, sharing a run prefix. Every fifth measured message
  // (after the first few seconds) is instead a follow-up from the customer who wrote
  // FOLLOW_UP_AFTER_S before.
  const prefix = `25079${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
  const back = Math.round(rate * FOLLOW_UP_AFTER_S);
  const encoder = new TextEncoder();
  const plan: Plan = { deliveries: [], wamids: [], senders: [], topics: [] };
  const timestamp = Math.floor(Date.now() / 1000);
  for (let i = 0; i < count; i++) {
    const followUp = i >= warm + back && i % 5 === 4 && plan.topics[i - back] !== "follow-up";
    const from = followUp ? plan.senders[i - back] : `${prefix}${String(i).padStart(5, "0")}`;
    const opening = OPENINGS[i % OPENINGS.length];
    const text = followUp ? FOLLOW_UPS[Math.floor(i / 5) % FOLLOW_UPS.length] : opening.text;
    const wamid = `wamid.load.${run}.${i}`;
    const body = JSON.stringify(messageDelivery({ from, name: `Load ${i}`, wamid, timestamp }, {
      text,
    }));
    plan.deliveries.push([body, await signBody(options.appSecret, encoder.encode(body))]);
    plan.wamids.push(wamid);
    plan.senders.push(from);
    plan.topics.push(i < warm ? "warm-up" : followUp ? "follow-up" : opening.topic);
  }
  return plan;
}

/** Posts the plan from a second process; returns what it measured. */
async function postFromClient(url: string, plan: Plan, rate: number): Promise<ClientResult> {
  const file = await Deno.makeTempFile({ prefix: "sustained-load-", suffix: ".json" });
  try {
    await Deno.writeTextFile(file, JSON.stringify(plan.deliveries));
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL(import.meta.url).pathname,
        "--client",
        "--url",
        url,
        "--file",
        file,
        "--rate",
        String(rate),
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`the load client failed (exit ${output.code})`);
    return JSON.parse(new TextDecoder().decode(output.stdout));
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rate: { type: "string", default: "20" },
      seconds: { type: "string", default: "75" },
      warmup: { type: "string", default: "5" },
      grace: { type: "string", default: "30" },
      postgres: { type: "string" },
      memory: { type: "boolean", default: false },
      // Internal: the load client.
      client: { type: "boolean" },
      url: { type: "string" },
      file: { type: "string" },
    },
  });
  const rate = Number(values.rate);
  if (values.client) {
    console.log(JSON.stringify(await runClient({ url: values.url!, file: values.file!, rate })));
    return;
  }
  const seconds = Number(values.seconds);
  const warmupSeconds = Number(values.warmup);
  const grace = Number(values.grace);
  for (const [name, value] of Object.entries({ rate, seconds, grace })) {
    if (!(value > 0 && value <= 10_000)) {
      console.error(`--${name} must be a number above 0 (at most 10,000)`);
      Deno.exit(2);
    }
  }
  if (!(warmupSeconds >= 0 && warmupSeconds <= 600)) {
    console.error("--warmup must be a number of seconds from 0 to 600");
    Deno.exit(2);
  }
  const postgresUrl = values.postgres ?? Deno.env.get("TEST_DATABASE_URL");
  // The offline flows answer: a model's latency is not what this measures.
  Deno.env.delete("OPENAI_API_KEY");

  const root = await Deno.makeTempDir({ prefix: "easymo-load-" });
  const log = countingLogger();
  let database: TestDatabase | undefined;
  if (postgresUrl) {
    Deno.env.set("TEST_DATABASE_URL", postgresUrl);
    database = await openTestDatabase("postgres");
  } else if (values.memory) {
    database = await openTestDatabase("pglite");
  }
  const backend = postgresUrl
    ? "Postgres (new database)"
    : values.memory
    ? "PGlite in memory"
    : "PGlite in a folder (the dev default)";
  const booted = performance.now();
  const server = await startDevServer({
    port: 0,
    root,
    database,
    dataDir: database ? undefined : `${root}pglite`,
    log,
  });
  const db = server.runtime.platform.db;
  const query: QueryFn = (sql, params) => db.query(sql, params);
  console.log(
    `sustained load: ${rate} msg/s for ${seconds} s (after ${warmupSeconds} s of warm-up) from ` +
      `new customers, mixed topics in en/rw/fr; ${backend}; offline agent flows; ` +
      `${navigator.hardwareConcurrency} cores; Deno ${Deno.version.deno}; server ready in ${
        ((performance.now() - booted) / 1000).toFixed(1)
      } s; load average ${loadAverage()}`,
  );
  const plan = await buildPlan({
    rate,
    seconds,
    warmupSeconds,
    appSecret: localWhatsAppSecrets(server.runtime.platform.secret).appSecret,
  });
  const total = plan.wamids.length;
  const measured = plan.topics.map((topic, i) => topic === "warm-up" ? -1 : i)
    .filter((i) => i >= 0);
  const run = plan.wamids[0].split(".")[2];

  try {
    // The server's CPU time (this process, every thread) from the first post to the last answer:
    // per message, it says what a core can carry, whatever else the machine runs.
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const posted = await postFromClient(
      `${server.url}/functions/v1/wa-webhook`,
      plan,
      rate,
    );
    // Stragglers: wait for every answer, at most `grace` seconds after the last post.
    const waitUntil = performance.now() + grace * 1000;
    let replies = await answers(query, run);
    while (replies.length < total && performance.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      replies = await answers(query, run);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const wallSeconds = (performance.now() - wallBefore) / 1000;

    const byWamid = new Map(replies.map((reply) => [reply.wamid, reply]));
    const latencyOf = (i: number) => {
      const reply = byWamid.get(plan.wamids[i]);
      return reply ? Number(reply.queued_ms) - posted.due[i] : null;
    };
    const queued: number[] = [];
    const sent: number[] = [];
    const warmUp: number[] = [];
    const byTopic = new Map<string, number[]>();
    // Every 15 s of the measured run, by when the message was due: a queue building up shows.
    const windows: Array<{ latencies: number[]; unanswered: number }> = [];
    const firstDue = posted.due[measured[0]];
    for (let i = 0; i < total; i++) {
      const latency = latencyOf(i);
      if (plan.topics[i] === "warm-up") {
        if (latency !== null) warmUp.push(latency);
        continue;
      }
      const window = Math.floor((posted.due[i] - firstDue) / 15_000);
      windows[window] ??= { latencies: [], unanswered: 0 };
      if (latency === null) {
        windows[window].unanswered++;
        continue;
      }
      queued.push(latency);
      windows[window].latencies.push(latency);
      const sentMs = byWamid.get(plan.wamids[i])!.sent_ms;
      if (sentMs !== null) sent.push(Number(sentMs) - posted.due[i]);
      const topic = plan.topics[i];
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), latency]);
    }
    const [busy] = await query<{ n: number; first_ms: number | null }>(
      `select count(*)::int as n, extract(epoch from min(created_at)) * 1000 as first_ms
         from public.wa_outbox where idempotency_key like $1`,
      [`busy:wamid.load.${run}.%`],
    );
    const inbound = await query<{ status: string; n: number }>(
      `select status, count(*)::int as n from private.wa_inbound
        where wamid like $1 group by status order by status`,
      [`wamid.load.${run}.%`],
    );
    const tools = await query<{ tool: string; calls: number; refused: number }>(
      `select tool, count(*)::int as calls,
              count(*) filter (where error_code = 'RATE_LIMIT')::int as refused
         from public.tool_calls where trace_id like $1 group by tool order by calls desc`,
      [`wamid.load.${run}.%`],
    );
    const statuses = new Map<string, number>();
    for (const status of posted.statuses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const customers = new Set(measured.map((i) => plan.senders[i])).size;

    console.log(
      `measured: ${measured.length} messages from ${customers} new customers (${
        measured.length - customers
      } follow-ups); warm-up: ${total - measured.length} more before them`,
    );
    console.log(
      `posted ${total} in ${posted.seconds.toFixed(1)} s (${
        (total / posted.seconds).toFixed(1)
      }/s); webhook answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
    );
    console.log(
      `server CPU: ${cpuSeconds.toFixed(1)} s in ${wallSeconds.toFixed(1)} s (${
        (cpuSeconds * 1000 / total).toFixed(1)
      } ms a message; ${(100 * cpuSeconds / wallSeconds).toFixed(0)}% of one core)`,
    );
    console.log(`answer queued (outbox): ${summary(queued)}`);
    console.log(`answer sent (dispatcher): ${summary(sent)}`);
    for (const [index, window] of windows.entries()) {
      const label = `${index * 15}-${(index + 1) * 15} s`;
      console.log(
        `  ${label.padEnd(10)} ${String(window.latencies.length).padStart(5)}  ${
          summary(window.latencies)
        }${window.unanswered ? `, ${window.unanswered} unanswered` : ""}`,
      );
    }
    for (const [topic, latencies] of byTopic) {
      console.log(
        `  ${topic.padEnd(10)} ${String(latencies.length).padStart(5)}  ${summary(latencies)}`,
      );
    }
    if (warmUp.length) {
      console.log(`  (warm-up    ${String(warmUp.length).padStart(5)}  ${summary(warmUp)})`);
    }
    const firstBusy = busy.first_ms === null
      ? ""
      : ` (the first ${((Number(busy.first_ms) - firstDue) / 1000).toFixed(1)} s in)`;
    console.log(`unanswered: ${measured.length - queued.length} of ${measured.length}`);
    console.log(`"busy, try again shortly" replies: ${busy.n}${firstBusy}`);
    console.log(`inbound rows: ${inbound.map((row) => `${row.status}×${row.n}`).join(" ")}`);
    console.log(
      `tool calls: ${
        tools.map((row) =>
          `${row.tool} ${row.calls}${row.refused ? ` (${row.refused} RATE_LIMIT)` : ""}`
        ).join(", ")
      }`,
    );
    const logged = [...log.counts].sort((a, b) => b[1] - a[1]);
    console.log(
      `warnings and errors logged: ${
        logged.length ? logged.map(([key, n]) => `${key} ×${n}`).join(", ") : "none"
      }`,
    );
    for (const [text, n] of log.texts) console.log(`  ×${n} ${text}`);
    console.log(`load average at the end: ${loadAverage()}`);
  } finally {
    await server.close().catch(() => {});
    await database?.dispose().catch(() => {});
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  await main();
  // Pools and timers of the runtime may linger; the run is over.
  Deno.exit(0);
}
