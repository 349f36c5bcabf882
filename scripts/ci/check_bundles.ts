/**
 * CI: bundles each edge function (one `deno bundle`, esbuild) and fails when a
 * bundle carries PGlite or testing code, carries the agent's libraries
 * outside the `agent` function, or ships more than the budget (5 MiB;
 * Supabase's limit is 20 MB). Prints each size and what fills it.
 *
 * With `--start <postgres-url>` it then does a deploy-style start: each
 * bundle alone in an empty folder (no deno.json, no node_modules, an empty
 * Deno cache, `--cached-only`), run against a fresh migrated and seeded
 * database with the environment Supabase sets, and asked for a real answer:
 * the tools listing with a token and a document laid out for the service
 * role, the webhook's GET verification, buy & sell's vendor answers board
 * for staff (and 401 without a token), the Admin Inbox's `/me` refusing a
 * missing token, the agent function's health, and
 * a signed WhatsApp message that the webhook stores and the agent function
 * answers through a loopback Graph API.
 *
 * Run: `deno run -A scripts/ci/check_bundles.ts [--start $TEST_DATABASE_URL]`.
 *
 * @module
 */
import { signDevToken } from "@shared/auth/jwt.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { prepareDatabase } from "@shared/db/migrate.ts";
import { openPostgres } from "@shared/db/postgres_js.ts";
import { signForwarded } from "@shared/packs/payments/forwarder_auth.ts";
import { startFakeGraph } from "@testing/graph_server.ts";

/**
 * The budget per bundle: 5 MiB (Supabase's limit is 20 MB), and 7 MiB for the
 * agent, the one function that carries every pack's flows and phrases (1.2
 * MiB of ours, growing with each domain) beside LangGraph, LangChain core,
 * langsmith and openai (3.5 MiB). It asks the tools function to lay
 * documents out.
 */
export const BUDGET_BYTES = 5 * 1024 * 1024;

/** Functions with a budget of their own. */
// The tools function carries the generator of tenants' API tools (OpenAPI validator, YAML, graphql),
// whose OpenAPI 2.0/3.0/3.1 meta-schema validators come precompiled (0.6 MiB of generated code, so
// no instance spends 110–210 ms compiling each).
// The agent carries two models' weights too: routing (shared/packs/routing_model.json, 0.46 MiB,
// pruned and 8-bit) and harm (shared/agent/harm_model.ts, 0.22 MiB): it was 5.92 MiB without them
// and is 6.63 MiB with both.
const BUDGETS: Record<string, number> = {
  agent: 7 * 1024 * 1024,
  tools: 6.5 * 1024 * 1024,
};

/** Functions allowed to carry the agent's libraries. */
const AGENT_FUNCTIONS = new Set(["agent"]);

/** What must never be in a deployed bundle (esbuild names each module in a comment). */
const FORBIDDEN: { what: string; pattern: RegExp; unless?: Set<string> }[] = [
  {
    what: "the PDF stack",
    pattern: /^\/\/ .*node_modules\/\.deno\/pdf-lib@/m,
    // Only the functions that provide PDF_RENDERER lay documents out.
    // The agent asks the tools function (remote_renderer.ts).
    unless: new Set(["tools", "payments"]),
  },
  { what: "PGlite", pattern: /electric-sql[+/]pglite/ },
  { what: "testing code", pattern: /^\/\/ (testing|shared\/testing)\//m },
  { what: "LangChain/LangGraph", pattern: /^\/\/ .*@langchain\+/m, unless: AGENT_FUNCTIONS },
  {
    what: "the openai client",
    pattern: /^\/\/ .*node_modules\/\.deno\/openai@/m,
    // ocr-processor reads documents with OpenAI vision when deployed (docs/ocr.md), and so do
    // mcp's ocr_extract tasks (docs/mcp.md).
    unless: new Set([...AGENT_FUNCTIONS, "ocr-processor", "mcp"]),
  },
  // The agent file travels pre-parsed (config/agent_configs.ts); the tools function parses
  // tenants' OpenAPI documents, which may be YAML.
  {
    what: "the YAML parser",
    pattern: /^\/\/ .*node_modules\/\.deno\/yaml@/m,
    unless: new Set(["tools"]),
  },
  { what: "tesseract.js", pattern: /^\/\/ .*node_modules\/\.deno\/tesseract\.js/m },
  { what: "jimp", pattern: /^\/\/ .*node_modules\/\.deno\/@jimp\+/m },
  // A native addon and 15 MB of models: self-hosted readers only (docs/ocr.md).
  { what: "onnxruntime", pattern: /^\/\/ .*node_modules\/\.deno\/onnxruntime-/m },
  { what: "the PaddleOCR models", pattern: /^\/\/ .*node_modules\/\.deno\/@gutenye\+/m },
  // The staff desk and roster (admin-messages' assistant panel runs the staff agents' flows) may
  // travel; the graph, its model and its checkpointer only in the agent.
  {
    what: "the agent graph",
    pattern: /^\/\/ shared\/agent\/(agent_graph|model|model_turn|checkpointer|whatsapp_agent)\.ts/m,
    unless: AGENT_FUNCTIONS,
  },
];

const ROOT = new URL("../../", import.meta.url);

/** One function's bundle. */
export interface BundleReport {
  name: string;
  path: string;
  bytes: number;
  /** Bytes per npm package (and "ours" for the repository's code), largest first. */
  parts: [string, number][];
  problems: string[];
}

/** The functions: every folder of supabase/functions with an index.ts. */
export async function functionNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(new URL("supabase/functions/", ROOT))) {
    if (!entry.isDirectory) continue;
    try {
      await Deno.stat(new URL(`supabase/functions/${entry.name}/index.ts`, ROOT));
      names.push(entry.name);
    } catch { /* not a function */ }
  }
  return names.sort();
}

/** Splits a bundle by the module comments esbuild writes before each module. */
export function partsOf(text: string): [string, number][] {
  const sizes = new Map<string, number>();
  let current = "runtime";
  let start = 0;
  const add = (end: number) => sizes.set(current, (sizes.get(current) ?? 0) + end - start);
  for (const match of text.matchAll(/^\/\/ (\S+\.(?:[cm]?js|ts|json))$/gm)) {
    add(match.index!);
    const npm = /node_modules\/\.deno\/((?:@[^+/]+\+)?[^@/]+)@/.exec(match[1]);
    current = npm ? npm[1].replace("+", "/") : "ours";
    start = match.index!;
  }
  add(text.length);
  return [...sizes.entries()].sort((a, b) => b[1] - a[1]);
}

/**
 * Bundles every function in one `deno bundle` into `outDir/<name>/index.js`
 * and checks each bundle. One command, not one per function: each command
 * resolved the npm graph, loaded esbuild and parsed the shared code again (nine
 * times), and the bundles are byte for byte the same.
 */
export async function bundleFunctions(names: string[], outDir: string): Promise<BundleReport[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--outdir",
      outDir,
      ...names.map((name) => `supabase/functions/${name}/index.ts`),
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const failure = out.success ? "" : new TextDecoder().decode(out.stderr);
  return await Promise.all(names.map((name) => checkBundle(name, outDir, failure)));
}

/** Checks `outDir/<name>/index.js`: what it carries and its size. */
async function checkBundle(name: string, outDir: string, failure: string): Promise<BundleReport> {
  const path = `${outDir}/${name}/index.js`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return { name, path, bytes: 0, parts: [], problems: [failure || `no bundle at ${path}`] };
  }
  const bytes = (await Deno.stat(path)).size;
  const problems = FORBIDDEN
    .filter(({ pattern, unless }) => !unless?.has(name) && pattern.test(text))
    .map(({ what }) => `contains ${what}`);
  const budget = BUDGETS[name] ?? BUDGET_BYTES;
  if (bytes > budget) problems.push(`${mib(bytes)} is over the ${mib(budget)} budget`);
  return { name, path, bytes, parts: partsOf(text), problems };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

/** A bundle running alone, as a host would run it. */
interface Started {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** How long a bundle may take to listen, and the agent to answer (a hang, not a speed limit). */
const START_LIMIT_MS = 120_000;

async function startBundle(path: string, env: Record<string, string>): Promise<Started> {
  // The bundle alone in an empty folder, with an empty Deno cache: nothing else to lean on.
  const dir = await Deno.makeTempDir({ prefix: "easymo_deploy_" });
  await Deno.copyFile(path, `${dir}/index.js`);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-sys",
      "--no-config",
      "--no-lock",
      "--cached-only",
      "index.js",
    ],
    cwd: dir,
    clearEnv: true,
    env: { ...env, DENO_DIR: `${dir}/.deno`, DENO_SERVE_ADDRESS: "tcp:127.0.0.1:0", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  const decoder = new TextDecoder();
  let resolveUrl: (url: string) => void;
  const listening = new Promise<string>((resolve) => resolveUrl = resolve);
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      log += decoder.decode(chunk);
      const match = /Listening on (http:\/\/[^\s/]+)/.exec(log);
      if (match) resolveUrl(match[1].replace("0.0.0.0", "127.0.0.1"));
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const exited = child.status.then((status) => {
    throw new Error(`exited with ${status.code} before listening:\n${log}`);
  });
  // A limit for a hung start, not a speed check: beside CI's suites on a loaded machine a start
  // took over 30 s (a run of 2026-11-27 gave up there), so it waits up to 2 minutes.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no "Listening on" within ${START_LIMIT_MS / 1000} s:\n${log}`)),
      START_LIMIT_MS,
    );
  });
  try {
    const url = await Promise.race([listening, exited, timeout]).finally(() => clearTimeout(timer));
    return {
      url,
      output: () => log,
      async stop() {
        child.kill("SIGTERM");
        await child.status;
        await pumps;
        await Deno.remove(dir, { recursive: true });
      },
    };
  } catch (error) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    throw error;
  }
}

async function expect(what: string, response: Response, check: (body: string) => boolean) {
  const body = await response.text();
  if (!check(body)) throw new Error(`${what}: HTTP ${response.status} ${body.slice(0, 300)}`);
  console.log(`  ok  ${what}`);
}

/** Deploy-style start of every bundle against a fresh database on `serverUrl`. */
export async function startEachBundle(reports: BundleReport[], serverUrl: string): Promise<void> {
  const name = `easymo_deploy_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = openPostgres(serverUrl);
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${name}`;
  const db = openPostgres(dbUrl.href);
  const started: Started[] = [];
  // EasyMO's seeded number: the agent sends from it with the token its row names.
  await using graph = await startFakeGraph({ phoneNumberId: "100000000000001" });
  try {
    await prepareDatabase(db, { seed: true });
    const [aline] = await db.query<{ id: string }>(
      "select id from public.profiles where phone = '+250788000001'",
    );
    const jwtSecret = "ci-jwt-secret-at-least-32-characters-long";
    const serviceKey = await signDevToken(jwtSecret, { role: "service_role" });
    const env: Record<string, string> = {
      // What Supabase sets for every function, plus the project's secrets.
      SUPABASE_DB_URL: dbUrl.href,
      SUPABASE_URL: "http://127.0.0.1:9", // unused: EASYMO_AGENT_URL names the agent below
      SUPABASE_JWT_SECRET: jwtSecret,
      SUPABASE_SERVICE_ROLE_KEY: serviceKey,
      EASYMO_SECRET: "ci-platform-secret-at-least-32-characters",
      WHATSAPP_APP_SECRET: "ci-app-secret",
      WHATSAPP_VERIFY_TOKEN: "ci-verify",
      WHATSAPP_TOKEN: graph.token,
      WHATSAPP_GRAPH_URL: graph.baseUrl,
      MOMO_CALLBACK_SECRET: "ci-momo-callback-secret-0123456789",
    };
    const path = (fn: string) => reports.find((report) => report.name === fn)!.path;

    const agent = await startBundle(path("agent"), env);
    started.push(agent);
    await expect(
      "agent GET /agent/health",
      await fetch(`${agent.url}/agent/health`),
      (b) => JSON.parse(b).ok === true,
    );

    const webhook = await startBundle(path("wa-webhook"), {
      ...env,
      EASYMO_AGENT_URL: `${agent.url}/agent`,
    });
    started.push(webhook);
    await expect(
      "wa-webhook GET verification",
      await fetch(
        `${webhook.url}/wa-webhook?hub.mode=subscribe&hub.verify_token=ci-verify&hub.challenge=4242`,
      ),
      (b) => b === "4242",
    );
    const wamid = `wamid.ci-${crypto.randomUUID()}`;
    const delivery = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{
        id: "ci",
        changes: [{
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: {
              display_phone_number: "250700000000",
              phone_number_id: graph.phoneNumberId,
            },
            contacts: [{ wa_id: "250788000001", profile: { name: "Aline" } }],
            messages: [{
              from: "250788000001",
              id: wamid,
              timestamp: String(Math.floor(Date.now() / 1000)),
              type: "text",
              text: { body: "Hello" },
            }],
          },
        }],
      }],
    });
    await expect(
      "wa-webhook POST a signed message",
      await fetch(`${webhook.url}/wa-webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": await signBody(
            "ci-app-secret",
            new TextEncoder().encode(delivery),
          ),
        },
        body: delivery,
      }),
      (b) => JSON.parse(b).ok === true,
    );
    // The webhook woke the agent function: it answers and the reply reaches the Graph API.
    const deadline = Date.now() + START_LIMIT_MS;
    let status = "";
    while (Date.now() < deadline) {
      status = (await db.query<{ status: string }>(
        "select status from private.wa_inbound where wamid = $1",
        [wamid],
      ))[0]?.status ?? "";
      if (status === "done" && graph.accepted.some((m) => m.to === "250788000001")) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (status !== "done" || !graph.accepted.some((m) => m.to === "250788000001")) {
      throw new Error(
        `agent function did not answer the message (inbound ${status || "missing"}, ` +
          `${graph.accepted.length} sent)\n--- webhook\n${webhook.output()}\n--- agent\n${agent.output()}`,
      );
    }
    console.log("  ok  agent answered the stored message; its reply reached the Graph API");

    const tools = await startBundle(path("tools"), env);
    started.push(tools);
    const token = await signDevToken(jwtSecret, { userId: aline.id });
    await expect(
      "tools GET listing with a token",
      await fetch(`${tools.url}/tools?format=openai&agent=pharmacy`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      (b) => JSON.parse(b).ok === true,
    );

    // The agent function's documents are laid out here (remote_renderer.ts).
    await expect(
      "tools POST /documents/render with the service key is a PDF",
      await fetch(`${tools.url}/tools/documents/render`, {
        method: "POST",
        headers: { authorization: `Bearer ${serviceKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          content: { title: "Reçu", sections: [], date: new Date().toISOString() },
          options: { id: "0123456789abcdef0123456789abcdef", language: "fr" },
        }),
      }),
      (b) => b.startsWith("%PDF-"),
    );

    // The MCP endpoint: 401 with its RFC 9728 challenge without a token; a session lists tools.
    const mcp = await startBundle(path("mcp"), env);
    started.push(mcp);
    const mcpUnsigned = await fetch(`${mcp.url}/mcp`, { method: "POST", body: "{}" });
    await expect(
      "mcp POST without a token is 401 with resource_metadata",
      mcpUnsigned,
      () =>
        mcpUnsigned.status === 401 &&
        /resource_metadata=/.test(mcpUnsigned.headers.get("www-authenticate") ?? ""),
    );
    const mcpHeaders = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const initialized = await fetch(`${mcp.url}/mcp`, {
      method: "POST",
      headers: mcpHeaders,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "check_bundles", version: "1" },
        },
      }),
    });
    const session = initialized.headers.get("mcp-session-id") ?? "";
    await expect("mcp initialize opens a session", initialized, () => session !== "");
    await expect(
      "mcp tools/list lists search_businesses_with_tags",
      await fetch(`${mcp.url}/mcp`, {
        method: "POST",
        headers: { ...mcpHeaders, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      }),
      (b) => b.includes('"search_businesses_with_tags"'),
    );

    // Buy & sell's own function: its pack's staff routes, refused without a token, and the
    // vendors' answers board for the org's staff.
    const buySell = await startBundle(path("wa-webhook-buy-sell"), env);
    started.push(buySell);
    const anonymous = await fetch(`${buySell.url}/wa-webhook-buy-sell/inquiries`);
    await expect(
      "wa-webhook-buy-sell GET /inquiries without a token is 401",
      anonymous,
      () => anonymous.status === 401,
    );
    const [jean] = await db.query<{ id: string }>(
      "select id from public.profiles where phone = '+250788000002'",
    );
    await expect(
      "wa-webhook-buy-sell GET /inquiries for staff is the board",
      await fetch(`${buySell.url}/wa-webhook-buy-sell/inquiries`, {
        headers: { authorization: `Bearer ${await signDevToken(jwtSecret, { userId: jean.id })}` },
      }),
      (b) => Array.isArray(JSON.parse(b).data?.inquiries),
    );

    // Property's own function: its staff routes (listings to approve), refused without a
    // token, and the queue with its photos for the org's staff.
    const property = await startBundle(path("agent-property-rental"), env);
    started.push(property);
    const stranger = await fetch(`${property.url}/agent-property-rental/listings`);
    await expect(
      "agent-property-rental GET /listings without a token is 401",
      stranger,
      () => stranger.status === 401,
    );
    await expect(
      "agent-property-rental GET /listings for staff is the approval queue",
      await fetch(`${property.url}/agent-property-rental/listings`, {
        headers: { authorization: `Bearer ${await signDevToken(jwtSecret, { userId: jean.id })}` },
      }),
      (b) => Array.isArray(JSON.parse(b).data?.listings),
    );

    const inbox = await startBundle(path("admin-messages"), env);
    started.push(inbox);
    const me = await fetch(`${inbox.url}/admin-messages/me`);
    await expect("admin-messages GET /me without a token is 401", me, () => me.status === 401);

    const payments = await startBundle(path("payments"), env);
    started.push(payments);
    const unsigned = await fetch(`${payments.url}/payments/callback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expect(
      "payments POST /callback unsigned is 401",
      unsigned,
      () => unsigned.status === 401,
    );
    // A forwarder registered by the operator posts with the secret it was given, once.
    const added = await fetch(`${payments.url}/payments/forwarders`, {
      method: "POST",
      headers: { authorization: `Bearer ${serviceKey}`, "content-type": "application/json" },
      body: JSON.stringify({ org: "easymo", label: "CI till" }),
    });
    let device = { device_id: "", secret: "" };
    await expect("payments POST /forwarders registers a device", added, (body) => {
      device = JSON.parse(body).data ?? device;
      return added.status === 200 && device.secret.startsWith("fwd_sk_");
    });
    const sms = new TextEncoder().encode(JSON.stringify({
      sender: "M-Money",
      text: "You have received 700 RWF from X (2507******99). Financial Transaction Id: 1.",
      received_at: new Date().toISOString(),
    }));
    const forwarded = await fetch(`${payments.url}/payments/sms`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...await signForwarded({ deviceId: device.device_id, secret: device.secret, body: sms }),
      },
      body: sms,
    });
    await expect(
      "payments POST /sms signed by that device is filed",
      forwarded,
      (body) => forwarded.status === 200 && JSON.parse(body).data.match_status === "unmatched",
    );
    const posing = await fetch(`${payments.url}/payments/sms`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...await signForwarded({ deviceId: "fwd-nobodyhere0", secret: device.secret, body: sms }),
      },
      body: sms,
    });
    await expect(
      "payments POST /sms under another device's name is 401",
      posing,
      () => posing.status === 401,
    );
  } finally {
    for (const child of started.reverse()) await child.stop();
    await db.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.close();
  }
}

if (import.meta.main) {
  const startIndex = Deno.args.indexOf("--start");
  const serverUrl = startIndex >= 0 ? Deno.args[startIndex + 1] : undefined;
  const outDir = await Deno.makeTempDir({ prefix: "easymo_bundles_" });
  const reports = await bundleFunctions(await functionNames(), outDir);
  console.log(`bundles (budget ${mib(BUDGET_BYTES)} each, the agent ${mib(BUDGETS.agent)}):`);
  for (const report of reports) {
    const top = report.parts.slice(0, 6).map(([part, bytes]) => `${part} ${mib(bytes)}`);
    console.log(`  ${report.name.padEnd(20)} ${mib(report.bytes).padStart(10)}  ${top.join(", ")}`);
    for (const problem of report.problems) console.log(`    FAIL ${problem}`);
  }
  if (reports.some((report) => report.problems.length)) Deno.exit(1);
  if (serverUrl) {
    console.log("deploy-style start, each bundle alone:");
    await startEachBundle(reports, serverUrl);
  }
  await Deno.remove(outDir, { recursive: true });
}
