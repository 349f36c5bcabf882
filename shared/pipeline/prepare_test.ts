import assert from "node:assert/strict";
import { z } from "zod";
import { ToolFailure } from "@shared/contract/mod.ts";
import type { Database } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

/**
 * A side-effecting tool whose `prepare` reads the database through another
 * path (as a Storage server sharing it would): on PGlite's one connection that
 * deadlocks unless `prepare` runs before the call's transaction opens.
 */
function ticketTool(db: Database, prepared: string[]) {
  return defineTool({
    name: "test.prepared_ticket",
    title: "Prepared ticket",
    description: "Reads outside its transaction first, then writes a ticket.",
    category: "test",
    input: z.object({ summary: z.string() }),
    output: z.object({ ticket_id: z.uuid(), outside: z.number() }),
    examples: [{ input: { summary: "x" } }],
    sideEffects: "writes.ticket",
    async prepare(args) {
      prepared.push(args.summary);
      if (args.summary === "refuse") throw new ToolFailure("VALIDATION_ERROR", "refused");
      const [row] = await db.query<{ n: number }>("select 41 + 1 as n");
      return row.n;
    },
    async execute(args, ctx) {
      const [row] = await ctx.db.query<{ id: string }>(
        `insert into public.staff_tickets (org_id, requester_user_id, channel, reason, summary)
         values ($1, $2, 'inbox', 'prepared', $3) returning id`,
        [ctx.org_id, ctx.user_id, args.summary],
      );
      return { ticket_id: row.id, outside: ctx.prepared as number };
    },
  });
}

dbTest(
  "prepare runs before the transaction, once; a replay and a refusal do not re-run it",
  async (db) => {
    const prepared: string[] = [];
    const rt = await createTestRuntime(db, { tools: [ticketTool(db, prepared)] });
    try {
      const first = await rt.callAs(USER.aline, "test.prepared_ticket", { summary: "a" }, {
        idempotencyKey: "p1",
        org: ORG.easymo,
      });
      assert.equal(first.ok, true, JSON.stringify(first));
      assert.equal(first.data.outside, 42);
      const replay = await rt.callAs(USER.aline, "test.prepared_ticket", { summary: "a" }, {
        idempotencyKey: "p1",
      });
      assert.deepEqual(replay, first);
      assert.deepEqual(prepared, ["a"]);

      const refused = await rt.callAs(USER.aline, "test.prepared_ticket", { summary: "refuse" }, {
        idempotencyKey: "p2",
      });
      assert.equal(refused.error.code, "VALIDATION_ERROR");
      // A refusal in prepare is deterministic: stored and replayed like any other.
      const again = await rt.callAs(USER.aline, "test.prepared_ticket", { summary: "refuse" }, {
        idempotencyKey: "p2",
      });
      assert.deepEqual(again, refused);
      assert.deepEqual(prepared, ["a", "refuse"]);
    } finally {
      await rt.platform.close();
    }
  },
);
