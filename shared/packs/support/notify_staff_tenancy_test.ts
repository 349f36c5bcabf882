/**
 * `notify_staff` hands over only a conversation the caller may see: their
 * own, or any of their org's for staff. Another org's or another customer's
 * conversation is refused and nothing is written, by the tool and, for code
 * that skips the tool's check, by the database.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

/** Writes a ticket for any conversation, without the tool's own check. */
const uncheckedTicket = defineTool({
  name: "test.unchecked_ticket",
  title: "Unchecked ticket",
  description: "Inserts a staff ticket for the given conversation, checking nothing itself.",
  category: "test",
  input: z.object({ convo_id: z.uuid() }),
  output: z.object({ id: z.uuid() }),
  examples: [{ input: { convo_id: "9f000000-0000-4000-8000-000000000000" } }],
  sideEffects: "writes.ticket",
  async execute(args, ctx) {
    const [row] = await ctx.db.query<{ id: string }>(
      `insert into public.staff_tickets (org_id, convo_id, requester_user_id, channel, reason, summary)
       values ($1, $2, $3, 'inbox', 'r', 's') returning id`,
      [ctx.org_id, args.convo_id, ctx.user_id],
    );
    return { id: row.id };
  },
});

/** Aline's and Eric's conversations (EasyMO) and Nina's (Beaver). */
async function conversations(db: TestDatabase) {
  const rows = await db.query<{ id: string; user_id: string }>(
    `insert into public.conversations (org_id, user_id) values ($1, $2), ($1, $3), ($4, $5)
     returning id, user_id`,
    [ORG.easymo, USER.aline, USER.eric, ORG.beaver, USER.nina],
  );
  const of = (user: string) => rows.find((row) => row.user_id === user)!.id;
  return { aline: of(USER.aline), eric: of(USER.eric), nina: of(USER.nina) };
}

const handOver = (convo_id?: string) => ({
  channel: "slack",
  payload: { ...(convo_id ? { convo_id } : {}), reason: "help", summary: "Wants a person" },
});

async function tickets(db: TestDatabase): Promise<{ convo_id: string | null }[]> {
  return await db.query("select convo_id from public.staff_tickets order by created_at");
}

async function call(rt: TestRuntime, user: string, args: unknown, org: string = ORG.easymo) {
  return await rt.callAs(user, "notify_staff", args, {
    org,
    idempotencyKey: crypto.randomUUID(),
  });
}

dbTest("notify_staff refuses another org's or another customer's conversation", async (db) => {
  const rt = await createTestRuntime(db);
  const convo = await conversations(db);
  const refusals = [
    // [caller, org, args, field named]
    [USER.aline, ORG.easymo, handOver(convo.nina), "payload.convo_id"],
    [USER.aline, ORG.easymo, handOver(convo.eric), "payload.convo_id"],
    [USER.jean, ORG.easymo, handOver(convo.nina), "payload.convo_id"],
    [USER.nina, ORG.beaver, handOver(convo.aline), "payload.convo_id"],
    [USER.paul, ORG.beaver, handOver(convo.aline), "payload.convo_id"],
  ] as const;
  for (const [user, org, args, field] of refusals) {
    const result = await call(rt, user, args, org);
    assert.equal(result.ok, false, `${user} ${JSON.stringify(args)}`);
    assert.equal(result.error.code, "NOT_FOUND");
    assert.equal(result.error.msg, `${field}: no such conversation`);
  }
  // The call's own conversation (context) is checked the same way.
  const viaContext = await rt.callAs(USER.aline, "notify_staff", handOver(), {
    idempotencyKey: "ctx-1",
    context: { convo_id: convo.eric },
  });
  assert.equal(viaContext.error.code, "NOT_FOUND");
  assert.equal(viaContext.error.msg, "context.convo_id: no such conversation");
  // Nothing written: no ticket, no staged Slack message.
  assert.deepEqual(await tickets(db), []);
  assert.deepEqual(await db.query("select 1 from public.notification_outbox"), []);
  // Anonymous callers never reach the tool.
  const anon = await rt.platform.call({
    tool: "notify_staff",
    args: handOver(convo.aline),
    caller: { claims: { role: "anon" }, org_id: ORG.easymo },
    idempotencyKey: "anon-1",
  });
  assert.equal(anon.ok, false);
  assert.equal(anon.ok === false && anon.error.code, "AUTH_ERROR");
  assert.deepEqual(await tickets(db), []);
});

dbTest(
  "notify_staff hands over the caller's own conversation, and staff any of their org's",
  async (db) => {
    const rt = await createTestRuntime(db);
    const convo = await conversations(db);
    assert.ok((await call(rt, USER.aline, handOver(convo.aline))).ok);
    assert.ok((await call(rt, USER.jean, handOver(convo.eric))).ok);
    assert.ok((await call(rt, USER.nina, handOver(convo.nina), ORG.beaver)).ok);
    assert.deepEqual(
      await tickets(db).then((rows) => rows.map((row) => row.convo_id).sort()),
      [
        convo.aline,
        convo.eric,
        convo.nina,
      ].sort(),
    );
  },
);

dbTest(
  "code that skips the check is refused by the database: AUTH_ERROR, never INTERNAL_ERROR",
  async (db) => {
    const rt = await createTestRuntime(db, { tools: [uncheckedTicket] });
    const convo = await conversations(db);
    const raw = (user: string, convo_id: string, org: string = ORG.easymo) =>
      rt.callAs(user, "test.unchecked_ticket", { convo_id }, {
        org,
        idempotencyKey: crypto.randomUUID(),
      });
    for (
      const [user, id, org] of [
        [USER.aline, convo.eric, ORG.easymo],
        [USER.aline, convo.nina, ORG.easymo],
        [USER.jean, convo.nina, ORG.easymo],
        [USER.nina, convo.aline, ORG.beaver],
      ] as const
    ) {
      const result = await raw(user, id, org);
      assert.equal(result.ok, false);
      assert.equal(result.error.code, "AUTH_ERROR", `${user} → ${id}`);
    }
    assert.deepEqual(await tickets(db), []);
    assert.ok((await raw(USER.aline, convo.aline)).ok);
    assert.equal((await tickets(db)).length, 1);
  },
);
