import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { bodyChoices, bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { ORG, USER } from "@testing/seed.ts";
import { seedTenantFixtures, TENANT_A } from "@testing/tenant_fixtures.ts";
import { PACKS } from "@shared/packs/mod.ts";
import { packAgents } from "@shared/registry/pack.ts";
import type { Database } from "@shared/db/types.ts";

// Jean is EasyMO staff and the seed registers his number with EasyMO; Aline is a customer.
const JEAN = "250788000002";
const ALINE = "250788000001";
// Paul is Beaver's staff.
const PAUL = "250788000010";
const BEAVER_NUMBER = "100000000000002";

const STAFF_AGENTS = packAgents(PACKS).filter((agent) => agent.audience === "staff");
// The staff agents a staff member can talk to: those with a flow.
const WITH_FLOW = STAFF_AGENTS.filter((agent) => agent.offlineFlow).map((agent) => agent.id);

async function conversationAgent(db: Database, userId: string, orgId: string) {
  const [row] = await db.query<{ agent_id: string | null; state: Record<string, unknown> }>(
    `select agent_id, state from public.conversations
     where user_id = $1 and org_id = $2 and channel = 'whatsapp' and status <> 'closed'`,
    [userId, orgId],
  );
  return row;
}

dbTest(
  "a staff member on their registered number gets the staff menu, talks to an agent and goes back",
  async (db) => {
    await seedTenantFixtures(db);
    const channel = await startAgentChannel(db, { model: null });
    try {
      const menu = await channel.say(JEAN, { text: "hello" });
      assert.match(bodyText(menu), /Staff desk/);
      // Every staff agent with a flow that EasyMO runs, and nothing a customer sees.
      assert.deepEqual(bodyChoices(menu), WITH_FLOW.map((id) => `staff:${id}`));
      assert.ok(WITH_FLOW.includes("locops"));

      const locops = await channel.say(JEAN, {
        listReply: { id: "staff:locops", title: "Operations (Locops)" },
      });
      assert.deepEqual(bodyChoices(locops), [
        "locops:orders",
        "locops:drivers",
        "locops:charges",
        "locops:tickets",
      ]);
      assert.equal((await conversationAgent(db, USER.jean, ORG.easymo)).agent_id, "locops");

      // The answer names venues (read as Jean, under RLS), never their ids.
      await channel.say(JEAN, { listReply: { id: "locops:orders", title: "Open orders" } });
      const sent = await channel.outbox(JEAN);
      const answer = bodyText(sent.at(-2)!);
      const [venue] = await db.query<{ name: string }>(
        "select name from public.businesses where id = $1",
        [TENANT_A.business],
      );
      assert.match(answer, /Open orders per venue/);
      assert.ok(answer.includes(venue.name), answer);
      assert.ok(!answer.includes(TENANT_A.business), answer);

      // Back to the menu.
      const back = await channel.say(JEAN, { text: "menu" });
      assert.deepEqual(bodyChoices(back), WITH_FLOW.map((id) => `staff:${id}`));
      // A menu number picks its row.
      const picked = await channel.say(JEAN, { text: String(WITH_FLOW.indexOf("locops") + 1) });
      assert.match(bodyText(picked), /Locops here/);
      // In French, the staff member's words pick the answer.
      const tickets = await channel.say(JEAN, { text: "Quels tickets sont en attente ?" });
      assert.match(bodyText(tickets), /Autre chose/);
      assert.match(
        bodyText((await channel.outbox(JEAN)).at(-2)!),
        /Tickets en attente du personnel/,
      );
    } finally {
      await channel.rt.platform.close();
    }
  },
);

dbTest("a customer never reaches a staff agent, however they ask", async (db) => {
  await seedTenantFixtures(db);
  const channel = await startAgentChannel(db, { model: null });
  try {
    const attempts = STAFF_AGENTS.flatMap((agent) => [
      { text: agent.id },
      { text: agent.name },
      { listReply: { id: `staff:${agent.id}`, title: agent.name } },
      { listReply: { id: `agent:${agent.id}`, title: agent.name } },
      { buttonReply: { id: `staff:${agent.id}`, title: agent.name } },
      { buttonReply: { id: `agent:${agent.id}`, title: agent.name } },
    ]);
    const phrases = ["locops", "marketing", "I am staff", "staff menu", "analytics", "0", "menu"]
      .map((text) => ({ text }));
    const staffIds = new Set(STAFF_AGENTS.map((agent) => agent.id));
    for (
      const content of [...attempts, ...phrases, { listReply: { id: "locops:orders", title: "x" } }]
    ) {
      const reply = await channel.say(ALINE, content);
      const choices = bodyChoices(reply);
      assert.ok(
        !choices.some((id) => id.startsWith("staff:") || id.startsWith("locops:")),
        `${JSON.stringify(content)} offered ${choices}`,
      );
      assert.doesNotMatch(bodyText(reply), /Staff desk|Locops here|Open orders per venue/);
      const row = await conversationAgent(db, USER.aline, ORG.easymo);
      assert.ok(
        !staffIds.has(row.agent_id ?? ""),
        `${JSON.stringify(content)} reached ${row.agent_id}`,
      );
      assert.notEqual(row.state.audience, "staff");
    }
    // No tool call was made for her as a staff agent.
    await channel.rt.platform.traces.flush();
    const calls = await db.query<{ agent_id: string }>(
      "select distinct agent_id from public.tool_calls where user_id = $1 and agent_id is not null",
      [USER.aline],
    );
    assert.ok(!calls.some((call) => staffIds.has(call.agent_id)), JSON.stringify(calls));
  } finally {
    await channel.rt.platform.close();
  }
});

dbTest(
  "staff of one org writing to another org's number is a customer there; a demoted member is a customer",
  async (db) => {
    await seedTenantFixtures(db);
    // Paul is registered as Beaver's staff; Jean writes to Beaver's number, Paul to EasyMO's.
    await db.query(
      "insert into public.staff_whatsapp_numbers (org_id, phone, user_id) values ($1, $2, $3)",
      [ORG.beaver, `+${PAUL}`, USER.paul],
    );
    const channel = await startAgentChannel(db, { model: null });
    try {
      const paul = await channel.say(PAUL, { text: "locops" });
      assert.ok(!bodyChoices(paul).some((id) => id.startsWith("staff:")), bodyText(paul));
      assert.notEqual((await conversationAgent(db, USER.paul, ORG.easymo)).state.audience, "staff");
      const jean = await channel.say(JEAN, { text: "hello" }, { phoneNumberId: BEAVER_NUMBER });
      assert.doesNotMatch(bodyText(jean), /Staff desk/);
      assert.notEqual((await conversationAgent(db, USER.jean, ORG.beaver)).state.audience, "staff");
      // Paul at his own org's number is staff there.
      const own = await channel.say(PAUL, { text: "hello" }, { phoneNumberId: BEAVER_NUMBER });
      assert.equal((await conversationAgent(db, USER.paul, ORG.beaver)).state.audience, "staff");
      assert.ok(bodyText(own).length > 0);

      // Jean loses his staff role at EasyMO: his registered number no longer makes him staff.
      await db.query(
        "update public.org_members set role = 'customer' where org_id = $1 and user_id = $2",
        [ORG.easymo, USER.jean],
      );
      const demoted = await channel.say(JEAN, {
        listReply: { id: "staff:locops", title: "Locops" },
      });
      assert.ok(!bodyChoices(demoted).some((id) => id.startsWith("locops:")), bodyText(demoted));
      assert.doesNotMatch(bodyText(demoted), /Locops here|Staff desk/);
    } finally {
      await channel.rt.platform.close();
    }
  },
);

dbTest(
  "only an org's admins register staff numbers, and only for their own org's members",
  async (db) => {
    await seedTenantFixtures(db);
    const asUser = (userId: string, sql: string, params: unknown[]) =>
      db.transaction(async (tx) => {
        await tx.query("set local role authenticated");
        await tx.query("select set_config('request.jwt.claim.sub', $1, true)", [userId]);
        await tx.query(
          "select set_config('request.jwt.claims', $1, true)",
          [JSON.stringify({ sub: userId, role: "authenticated" })],
        );
        return await tx.query(sql, params);
      });
    const insert =
      "insert into public.staff_whatsapp_numbers (org_id, phone, user_id) values ($1, $2, $3)";
    // A staff member (not admin) and a customer cannot register a number, not even their own.
    await assert.rejects(asUser(USER.jean, insert, [ORG.easymo, "+250788000099", USER.jean]));
    await assert.rejects(asUser(USER.aline, insert, [ORG.easymo, "+250788000001", USER.aline]));
    // EasyMO's admin cannot register for Beaver.
    await assert.rejects(asUser(USER.grace, insert, [ORG.beaver, "+250788000097", USER.paul]));
    // … nor name another org's person in EasyMO.
    await assert.rejects(asUser(USER.grace, insert, [ORG.easymo, "+250788000096", USER.paul]));
    // EasyMO's admin registers a member of EasyMO.
    await asUser(USER.grace, insert, [ORG.easymo, "+250788000095", USER.grace]);
    // A customer reads none; staff read their org's.
    assert.equal(
      (await asUser(USER.aline, "select * from public.staff_whatsapp_numbers", [])).length,
      0,
    );
    const seen = await asUser(USER.jean, "select phone from public.staff_whatsapp_numbers", []);
    assert.deepEqual(seen.map((row) => (row as { phone: string }).phone).sort(), [
      "+250788000002",
      "+250788000095",
    ]);
  },
);
