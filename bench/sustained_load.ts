/**
 * Sustained load on the whole WhatsApp path of the dev stack: signed webhook
 * deliveries from many new customers at a steady rate, each answered by the
 * agent (its offline flows: no model is called) through the real tools,
 * rate limits, outbox and dispatcher. Not a test: it asserts nothing about
 * timings, it prints them.
 *
 * ```
 * deno task bench:load [--rate 20] [--seconds 75] [--grace 30] [--postgres URL] [--memory]
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
 *   Kinyarwanda and French, signed with the local app secret.
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
import { parseArgs } from "node:util";
import { messageDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createLogger, type LogFields, type Logger } from "@shared/runtime/log.ts";
import { openTestDatabase, type TestDatabase } from "@testing/db.ts";
import { localWhatsAppSecrets, startDevServer } from "../scripts/dev_server.ts";

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

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rate: { type: "string", default: "20" },
      seconds: { type: "string", default: "75" },
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
  const grace = Number(values.grace);
  for (const [name, value] of Object.entries({ rate, seconds, grace })) {
    if (!(value > 0 && value <= 10_000)) {
      console.error(`--${name} must be a number above 0 (at most 10,000)`);
      Deno.exit(2);
    }
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
    `sustained load: ${rate} msg/s for ${seconds} s from new customers, mixed topics in en/rw/fr; ` +
      `${backend}; offline agent flows; ${navigator.hardwareConcurrency} cores; ` +
      `Deno ${Deno.version.deno}; server ready in ${
        ((performance.now() - booted) / 1000).toFixed(1)
      } s; load average ${loadAverage()}`,
  );

  const count = Math.round(rate * seconds);
  const run = crypto.randomUUID().slice(0, 6);
  // New customers: numbers no seed uses, sharing a run prefix. Every fifth message (after the
  // first few seconds) is instead a follow-up from the customer who wrote FOLLOW_UP_AFTER_S ago.
  const prefix = `25079${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
  const appSecret = localWhatsAppSecrets(server.runtime.platform.secret).appSecret;
  const encoder = new TextEncoder();
  const plan: Array<[string, string]> = [];
  const topics: string[] = [];
  const senders: string[] = [];
  const back = Math.round(rate * FOLLOW_UP_AFTER_S);
  const timestamp = Math.floor(Date.now() / 1000);
  for (let i = 0; i < count; i++) {
    const followUp = i % 5 === 4 && i >= back && topics[i - back] !== "follow-up";
    const from = followUp ? senders[i - back] : `${prefix}${String(i).padStart(5, "0")}`;
    const opening = OPENINGS[i % OPENINGS.length];
    const text = followUp ? FOLLOW_UPS[(i / 5) % FOLLOW_UPS.length | 0] : opening.text;
    const body = JSON.stringify(messageDelivery({
      from,
      name: `Load ${i}`,
      wamid: `wamid.load.${run}.${i}`,
      timestamp,
    }, { text }));
    plan.push([body, await signBody(appSecret, encoder.encode(body))]);
    senders.push(from);
    topics.push(followUp ? "follow-up" : opening.topic);
  }
  const file = await Deno.makeTempFile({ prefix: "sustained-load-", suffix: ".json" });
  await Deno.writeTextFile(file, JSON.stringify(plan));

  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL(import.meta.url).pathname,
        "--client",
        "--url",
        `${server.url}/functions/v1/wa-webhook-buy-sell`,
        "--file",
        file,
        "--rate",
        String(rate),
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`the load client failed (exit ${output.code})`);
    const posted: ClientResult = JSON.parse(new TextDecoder().decode(output.stdout));

    // Stragglers: wait for every answer, at most `grace` seconds after the last post.
    const waitUntil = performance.now() + grace * 1000;
    let replies = await answers(query, run);
    while (replies.length < count && performance.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      replies = await answers(query, run);
    }
    const byWamid = new Map(replies.map((reply) => [reply.wamid, reply]));
    const queued: number[] = [];
    const sent: number[] = [];
    const byTopic = new Map<string, number[]>();
    // Every 15 s of the run, by when the message was due: a queue building up shows here.
    const windows: Array<{ latencies: number[]; unanswered: number }> = [];
    for (let i = 0; i < count; i++) {
      const window = Math.floor((posted.due[i] - posted.due[0]) / 15_000);
      windows[window] ??= { latencies: [], unanswered: 0 };
      const reply = byWamid.get(`wamid.load.${run}.${i}`);
      if (!reply) {
        windows[window].unanswered++;
        continue;
      }
      const latency = Number(reply.queued_ms) - posted.due[i];
      queued.push(latency);
      windows[window].latencies.push(latency);
      if (reply.sent_ms !== null) sent.push(Number(reply.sent_ms) - posted.due[i]);
      byTopic.set(topics[i], [...(byTopic.get(topics[i]) ?? []), latency]);
    }
    const [busy] = await query<{ n: number; first_ms: number | null }>(
      `select count(*)::int as n, extract(epoch from min(created_at)) * 1000 as first_ms
         from public.wa_outbox where to_wa_id like $1 and idempotency_key like 'busy:%'`,
      [`${prefix}%`],
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

    console.log(
      `messages: ${count}, from ${new Set(senders).size} new customers (${
        count - new Set(senders).size
      } follow-ups)`,
    );
    console.log(
      `posted ${count} in ${posted.seconds.toFixed(1)} s (${
        (count / posted.seconds).toFixed(1)
      }/s); webhook answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
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
    const firstBusy = busy.first_ms === null
      ? ""
      : ` (the first ${((Number(busy.first_ms) - posted.due[0]) / 1000).toFixed(1)} s in)`;
    console.log(`unanswered: ${count - queued.length} of ${count}`);
    console.log(`"busy, try again shortly" replies: ${busy.n}${firstBusy}`);
    console.log(`inbound rows: ${inbound.map((row) => `${row.status}×${row.n}`).join(" ")}`);
    console.log(
      `tool calls: ${
        tools.map((row) =>
          `${row.tool} ${row.calls}${row.refused ? ` (${row.refused} RATE_LIMIT)` : ""}`
        )
          .join(", ")
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
    await Deno.remove(file).catch(() => {});
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
