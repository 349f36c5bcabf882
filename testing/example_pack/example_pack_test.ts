/**
 * A domain is one folder, one line in the pack list, its migration and one
 * YAML entry: the example library pack, added so, runs for two tenants at
 * once through the real webhook, pipeline and database. Each tenant's
 * customer is routed to the desk by their words, the desk's flow holds a
 * book through the pack's own tool, staff see their own tenant's requests
 * on the pack's route, the schedule expires stale requests per tenant, and
 * nothing crosses between the tenants.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { applyMigrations, readMigrations } from "@shared/db/migrate.ts";
import { runPackSchedules } from "@shared/platform/pack_surfaces.ts";
import { AGENT_CONFIG_URL, PACKS } from "@shared/platform/platform.ts";
import { createToolsApp } from "../../supabase/functions/tools/app.ts";
import { dbTest, type TestDatabase } from "../db.ts";
import { createTestRuntime } from "../runtime.ts";
import { ORG, USER } from "../seed.ts";
import { enableTools } from "../tenant_policy.ts";
import { EXAMPLE_AGENT_CONFIG_URL, EXAMPLE_MIGRATIONS_URL, EXAMPLE_PACK } from "./mod.ts";

const SECRET = "example-pack-app-secret";
const ALINE = "250788000077";
const NINA = "250788000088";
const T0 = new Date("2026-03-02T08:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

type Tenants = Record<string, { agents: unknown[] }>;

/** config/agent_configs.yaml with the example's entry merged in, tenant by tenant. */
async function agentConfigWithExample(): Promise<unknown> {
  const base = parseYaml(await Deno.readTextFile(AGENT_CONFIG_URL)) as { tenants: Tenants };
  const entry = parseYaml(await Deno.readTextFile(EXAMPLE_AGENT_CONFIG_URL)) as {
    tenants: Tenants;
  };
  for (const [tenant, { agents }] of Object.entries(entry.tenants)) {
    base.tenants[tenant] = { agents: [...base.tenants[tenant]?.agents ?? [], ...agents] };
  }
  return base;
}

async function withExamplePack(db: TestDatabase) {
  await applyMigrations(db, await readMigrations(EXAMPLE_MIGRATIONS_URL));
  let now = T0;
  const rt = await createTestRuntime(db, {
    packs: [...PACKS, EXAMPLE_PACK],
    agentConfig: await agentConfigWithExample(),
    now: () => now,
  });
  // A tenant whose policy lists the tools it enables (Beaver's) enables the new domain's too.
  await enableTools(
    db,
    rt.platform.tenants,
    ORG.beaver,
    EXAMPLE_PACK.tools.map((tool) => tool.name),
  );
  const tasks: Promise<unknown>[] = [];
  // One channel serves both tenants: the number a message is sent to picks the tenant.
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null }),
    background: (task) => void tasks.push(task()),
  });
  const numbers = { easymo: "100000000000001", beaver: "100000000000002" };
  let n = 0;
  async function say(
    tenant: keyof typeof numbers,
    from: string,
    content: SimulatedContent,
  ): Promise<string> {
    const body = new TextEncoder().encode(
      JSON.stringify(messageDelivery(
        { from, wamid: `wamid.example.${n++}`, phoneNumberId: numbers[tenant] },
        content,
      )),
    );
    const response = await channel.app.request("/wa-webhook", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(SECRET, body) },
      body,
    });
    assert.equal(response.status, 200);
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
    const [row] = await db.query<{ body: Record<string, unknown> }>(
      "select body from public.wa_outbox where to_wa_id = $1 order by seq desc limit 1",
      [from],
    );
    const sent = row?.body ?? {};
    return (sent.text as { body: string } | undefined)?.body ??
      (sent.interactive as { body: { text: string } } | undefined)?.body.text ?? "";
  }
  return {
    rt,
    say,
    setNow: (at: Date) => void (now = at),
  };
}

async function requestsOf(db: TestDatabase, org: string) {
  return await db.query<{ title: string; status: string }>(
    "select title, status from public.example_book_requests where org_id = $1 order by title",
    [org],
  );
}

dbTest(
  "two tenants' customers reach the library desk in their language, each in their own tenant",
  async (db) => {
    const { rt, say } = await withExamplePack(db);
    // Routed by the desk's intents (no keyword of the desk's in these), in English and French.
    assert.equal(
      await say("easymo", ALINE, { text: "I want to borrow a book" }),
      "Which book would you like to borrow? Send its title.",
    );
    assert.equal(
      await say("beaver", NINA, { text: "je voudrais emprunter un roman" }),
      "Quel livre souhaitez-vous emprunter ? Envoyez son titre.",
    );
    const held = await say("easymo", ALINE, { text: "Things Fall Apart" });
    assert.match(
      held,
      /^Done: we are holding “Things Fall Apart” for you\. Your reference is \w{8}\.$/,
    );
    const gardé = await say("beaver", NINA, { text: "Une si longue lettre" });
    assert.match(gardé, /^C'est fait : nous vous réservons « Une si longue lettre »/);
    // Each request belongs to its tenant only.
    assert.deepEqual(await requestsOf(db, ORG.easymo), [
      { title: "Things Fall Apart", status: "requested" },
    ]);
    assert.deepEqual(await requestsOf(db, ORG.beaver), [
      { title: "Une si longue lettre", status: "requested" },
    ]);
    // And so does every trace of the desk's tool.
    await rt.platform.traces.flush();
    const traces = await db.query<{ org_id: string; agent_id: string }>(
      `select org_id, agent_id from public.tool_calls
      where tool = 'library_request_book' order by org_id`,
    );
    assert.deepEqual(traces.map((trace) => trace.org_id).sort(), [ORG.easymo, ORG.beaver].sort());
    assert.ok(traces.every((trace) => trace.agent_id === "library_desk"));
  },
);

dbTest(
  "a tenant's allowlist for the desk is its own: beaver-paper's leaves out analytics_log",
  async (db) => {
    const { rt } = await withExamplePack(db);
    const easymo = rt.platform.getToolsForAgent("library_desk", ORG.easymo).map((t) => t.name);
    const beaver = rt.platform.getToolsForAgent("library_desk", ORG.beaver).map((t) => t.name);
    assert.ok(easymo.includes("analytics_log"));
    assert.ok(!beaver.includes("analytics_log"));
    const refused = await rt.callAs(USER.nina, "analytics_log", { event: "library_opened" }, {
      org: ORG.beaver,
      context: { agent_id: "library_desk" },
    });
    assert.equal(refused.ok, false);
    assert.match(refused.error.msg, /may not use analytics_log/);
    await rt.platform.traces.flush();
  },
);

dbTest("the pack's staff route shows each tenant's staff their own requests only", async (db) => {
  const { rt } = await withExamplePack(db);
  await rt.callAs(USER.aline, "library_request_book", { title: "Kinyarwanda grammar" }, {
    idempotencyKey: "aline-1",
  });
  await rt.callAs(USER.nina, "library_request_book", { title: "Paper making" }, {
    org: ORG.beaver,
    idempotencyKey: "nina-1",
  });
  const app = createToolsApp({ platform: rt.platform, resolveCaller: rt.resolveCaller });
  const get = async (user: string) => {
    const response = await app.request("/tools/packs/library_desk/requests", {
      headers: { authorization: `Bearer ${await rt.tokenFor(user)}` },
    });
    return { status: response.status, body: await response.json() };
  };
  const titles = (answer: { body: { data: { requests: { title: string }[] } } }) =>
    answer.body.data.requests.map((request) => request.title);
  const jean = await get(USER.jean);
  assert.equal(jean.status, 200);
  assert.deepEqual(titles(jean), ["Kinyarwanda grammar"]);
  const paul = await get(USER.paul);
  assert.equal(paul.status, 200);
  assert.deepEqual(titles(paul), ["Paper making"]);
  // A customer is not staff: refused before the pack's handler runs.
  const aline = await get(USER.aline);
  assert.equal(aline.status, 403);
  assert.equal(aline.body.error.code, "AUTH_ERROR");
  await rt.platform.traces.flush();
});

dbTest(
  "the pack's schedule expires stale requests for each tenant, once per period",
  async (db) => {
    const { rt, setNow } = await withExamplePack(db);
    await rt.callAs(USER.aline, "library_request_book", { title: "Old request" }, {
      idempotencyKey: "aline-old",
    });
    await rt.callAs(USER.nina, "library_request_book", { title: "Vieille demande" }, {
      org: ORG.beaver,
      idempotencyKey: "nina-old",
    });
    // A day later nothing is stale yet: both tenants' runs expire nothing.
    setNow(new Date(T0.getTime() + DAY));
    // The example's own schedule (the platform's packs have schedules of their own).
    const own = (run: { pack: string }) => run.pack === EXAMPLE_PACK.id;
    const early = (await runPackSchedules(rt.platform, { now: new Date(T0.getTime() + DAY) }))
      .filter(own);
    assert.deepEqual(
      early.map((run) => [run.tenant, run.schedule, run.result.ok && run.result.data]),
      [
        ["easymo", "expire_stale", { expired: 0 }],
        ["beaver-paper", "expire_stale", { expired: 0 }],
      ],
    );
    // Three days on, each tenant's stale request expires, in its own tenant.
    const later = new Date(T0.getTime() + 3 * DAY);
    setNow(later);
    const runs = (await runPackSchedules(rt.platform, { now: later })).filter(own);
    assert.deepEqual(runs.map((run) => run.result.ok && run.result.data), [
      { expired: 1 },
      { expired: 1 },
    ]);
    assert.deepEqual(await requestsOf(db, ORG.easymo), [{
      title: "Old request",
      status: "expired",
    }]);
    assert.deepEqual(await requestsOf(db, ORG.beaver), [
      { title: "Vieille demande", status: "expired" },
    ]);
    // A request made since, backdated past the hold, is left alone until the next period:
    // a second sweep in the same hour replays the first run instead of running again.
    await db.query(
      `insert into public.example_book_requests (org_id, user_id, title, requested_at)
     values ($1, $2, 'Backdated', $3)`,
      [ORG.easymo, USER.aline, T0.toISOString()],
    );
    const again = await runPackSchedules(rt.platform, {
      now: new Date(later.getTime() + 10 * 60_000),
      tenant: "easymo",
    });
    assert.equal(again.filter(own).length, 1);
    assert.deepEqual((await requestsOf(db, ORG.easymo)).map((row) => row.status), [
      "requested",
      "expired",
    ]);
    const nextHour = new Date(later.getTime() + 60 * 60_000);
    setNow(nextHour);
    await runPackSchedules(rt.platform, { now: nextHour, tenant: "easymo" });
    assert.deepEqual((await requestsOf(db, ORG.easymo)).map((row) => row.status), [
      "expired",
      "expired",
    ]);
    await rt.platform.traces.flush();
  },
);

dbTest(
  "the platform's sweep runs the pack's schedule by the platform's clock, with no WhatsApp worker",
  async (db) => {
    const { rt, setNow } = await withExamplePack(db);
    await rt.callAs(USER.aline, "library_request_book", { title: "Old request" }, {
      idempotencyKey: "aline-old",
    });
    // Three days on by the injected clock (no worker, no webhook: the platform's own sweep).
    const later = new Date(T0.getTime() + 3 * DAY);
    setNow(later);
    const first = await rt.platform.sweep();
    // Both tenants' runs of the example's schedule, beside the platform packs' own schedules.
    const others = (await runPackSchedules(rt.platform, { now: later }))
      .filter((run) => run.pack !== EXAMPLE_PACK.id).length;
    assert.deepEqual([first.schedules, first.schedulesFailed], [2 + others, 0]);
    assert.deepEqual(await requestsOf(db, ORG.easymo), [{
      title: "Old request",
      status: "expired",
    }]);

    // Backdated since: ten minutes on by the clock is the same period, so it is left alone;
    // an hour on is the next period, so it expires. Periods follow the injected clock, not
    // the machine's.
    await db.query(
      `insert into public.example_book_requests (org_id, user_id, title, requested_at)
       values ($1, $2, 'Backdated', $3)`,
      [ORG.easymo, USER.aline, T0.toISOString()],
    );
    setNow(new Date(later.getTime() + 10 * 60_000));
    await rt.platform.sweep();
    assert.deepEqual((await requestsOf(db, ORG.easymo)).map((row) => row.status), [
      "requested",
      "expired",
    ]);
    setNow(new Date(later.getTime() + 60 * 60_000));
    await rt.platform.sweep();
    assert.deepEqual((await requestsOf(db, ORG.easymo)).map((row) => row.status), [
      "expired",
      "expired",
    ]);
    await rt.platform.traces.flush();
  },
);
