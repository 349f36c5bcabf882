import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { seedTenantFixtures, TENANT_A } from "@testing/tenant_fixtures.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createStaffAssistant } from "@shared/platform/staff_assistant.ts";
import { createAdminApp } from "./app.ts";

async function serve(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const app = createAdminApp({ ...rt, assistant: createStaffAssistant(rt.platform) });
  const server = serveFunction("admin-messages", (request) => app.fetch(request));
  const as = async (userId: string) => {
    const token = await rt.tokenFor(userId);
    return async (path: string, init: { body?: unknown; key?: string } = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        method: init.body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.key ? { "idempotency-key": init.key } : {}),
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      return { status: response.status, body: await response.json() };
    };
  };
  return { rt, as, close: () => server.close() };
}

type Reply = { text: string; rows?: Array<{ id: string; title: string }> };
const ids = (replies: Reply[]) =>
  replies.flatMap((reply) => reply.rows?.map((row) => row.id) ?? []);

dbTest("the assistant panel: staff pick a staff agent and talk to it as themselves", async (db) => {
  await seedTenantFixtures(db);
  const { as, close } = await serve(db);
  try {
    const jean = await as(USER.jean);
    const menu = await jean("/assistant");
    assert.equal(menu.status, 200);
    assert.ok(ids(menu.body.data.replies).includes("staff:locops"));
    assert.ok(ids(menu.body.data.replies).every((id: string) => id.startsWith("staff:")));

    const picked = await jean("/assistant", { body: { choice: "staff:locops" }, key: "k1" });
    assert.equal(picked.body.data.agent, "locops");
    assert.ok(ids(picked.body.data.replies).includes("locops:orders"));

    const orders = await jean("/assistant", {
      body: { text: "Open orders", choice: "locops:orders" },
      key: "k2",
    });
    const [venue] = await db.query<{ name: string }>(
      "select name from public.businesses where id = $1",
      [TENANT_A.business],
    );
    const answer = orders.body.data.replies[0].text as string;
    assert.match(answer, /Open orders per venue/);
    assert.ok(answer.includes(venue.name), answer);
    // The search ran as Jean, for Locops, in his web conversation.
    const [conversation] = await db.query<{ channel: string; agent_id: string }>(
      "select channel, agent_id from public.conversations where user_id = $1 and channel = 'web'",
      [USER.jean],
    );
    assert.deepEqual(conversation, { channel: "web", agent_id: "locops" });

    // A retried request answers what it answered, without a second turn.
    const again = await jean("/assistant", {
      body: { text: "Open orders", choice: "locops:orders" },
      key: "k2",
    });
    assert.deepEqual(again.body.data, orders.body.data);

    // Back to the menu by words.
    const back = await jean("/assistant", { body: { text: "menu" }, key: "k3" });
    assert.equal(back.body.data.agent, "");
    assert.ok(ids(back.body.data.replies).includes("staff:locops"));

    // No key, no turn; a bad choice names its field.
    assert.equal(
      (await jean("/assistant", { body: { text: "hi" } })).body.error.code,
      "VALIDATION_ERROR",
    );
    const bad = await jean("/assistant", { body: { choice: "<script>" }, key: "k4" });
    assert.equal(bad.body.error.code, "VALIDATION_ERROR");
    assert.equal(bad.body.error.fields[0].path, "choice");
  } finally {
    await close();
  }
});

dbTest(
  "the assistant panel refuses customers, and another org's staff see their own org's agents",
  async (db) => {
    await seedTenantFixtures(db);
    const { as, close } = await serve(db);
    try {
      const aline = await as(USER.aline);
      const refused = await aline("/assistant", { body: { choice: "staff:locops" }, key: "a1" });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, "AUTH_ERROR");
      assert.equal((await aline("/assistant")).status, 403);
      // No staff desk was kept for her anywhere.
      const rows = await db.query(
        "select 1 from public.conversations where user_id = $1 and state->>'audience' = 'staff'",
        [USER.aline],
      );
      assert.equal(rows.length, 0);

      // Beaver runs one staff agent, analytics: a forged tap on EasyMO's locops reaches no agent,
      // and Paul's panel offers only Beaver's own.
      const paul = await as(USER.paul);
      const forged = await paul("/assistant", { body: { choice: "staff:locops" }, key: "p1" });
      assert.equal(forged.body.data.agent, "");
      assert.deepEqual(ids(forged.body.data.replies), ["staff:analytics_risk"]);
      const [state] = await db.query<{ org_id: string }>(
        "select org_id from public.conversations where user_id = $1 and state->>'audience' = 'staff'",
        [USER.paul],
      );
      assert.equal(state.org_id, ORG.beaver);
    } finally {
      await close();
    }
  },
);
