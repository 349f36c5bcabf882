import assert from "node:assert/strict";
import { z } from "zod";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER } from "@testing/seed.ts";

const PHARMACY = "c0000000-0000-4000-8000-000000000001";
const BEAVER_WAREHOUSE = "d0000000-0000-4000-8000-000000000001";

/** Writes feedback for any vendor and inquiry, without the tool's own checks. */
const uncheckedFeedback = defineTool({
  name: "test.unchecked_feedback",
  title: "Unchecked feedback",
  description: "Inserts vendor feedback as given, checking nothing itself.",
  category: "test",
  input: z.object({ business_id: z.uuid(), inquiry_id: z.uuid().optional() }),
  output: z.object({ id: z.uuid() }),
  examples: [{ input: { business_id: PHARMACY } }],
  sideEffects: "writes.feedback",
  async execute(args, ctx) {
    const [row] = await ctx.db.query<{ id: string }>(
      `insert into public.market_vendor_feedback (org_id, business_id, inquiry_id, user_id, feedback_type)
       values ($1, $2, $3, $4, 'accurate') returning id`,
      [ctx.org_id, args.business_id, args.inquiry_id ?? null, ctx.user_id],
    );
    return { id: row.id };
  },
});

/** An inquiry of Aline's, of Eric's (both EasyMO) and of Nina's (Beaver). */
async function inquiries(db: TestDatabase) {
  const rows = await db.query<{ id: string; user_id: string }>(
    `insert into public.market_vendor_inquiries
       (org_id, user_id, user_phone, request_type, request_summary, expires_at)
     values ($1, $2, '+250788000001', 'medicine', 'paracetamol', now() + interval '1 hour'),
            ($1, $3, '+250788000004', 'medicine', 'paracetamol', now() + interval '1 hour'),
            ($4, $5, '+250788000011', 'product', 'paper', now() + interval '1 hour')
     returning id, user_id`,
    [ORG.easymo, USER.aline, USER.eric, ORG.beaver, USER.nina],
  );
  const of = (user: string) => rows.find((row) => row.user_id === user)!.id;
  return { aline: of(USER.aline), eric: of(USER.eric), nina: of(USER.nina) };
}

function rate(
  rt: TestRuntime,
  user: string,
  args: Record<string, unknown>,
  options: { org?: string; tool?: string } = {},
) {
  return rt.callAs(user, options.tool ?? "log_user_feedback_on_vendor", {
    feedback_type: "accurate",
    ...args,
  }, { org: options.org ?? ORG.easymo, idempotencyKey: crypto.randomUUID() });
}

async function feedbackRows(db: TestDatabase): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.market_vendor_feedback",
  );
  return n;
}

dbTest(
  "log_user_feedback_on_vendor refuses another org's vendor and another person's inquiry",
  async (db) => {
    const rt = await createTestRuntime(db);
    // Another org whose customers rate vendors too (Beaver's seeded policy does not enable it).
    await enableTools(db, rt.platform.tenants, ORG.beaver, ["log_user_feedback_on_vendor"]);
    const inquiry = await inquiries(db);
    const refusals = [
      [USER.aline, ORG.easymo, { business_id: BEAVER_WAREHOUSE }, "business_id: no such vendor"],
      [USER.jean, ORG.easymo, { business_id: BEAVER_WAREHOUSE }, "business_id: no such vendor"],
      [USER.nina, ORG.beaver, { business_id: PHARMACY }, "business_id: no such vendor"],
      [
        USER.aline,
        ORG.easymo,
        { business_id: PHARMACY, inquiry_id: inquiry.eric },
        "inquiry_id: no such inquiry",
      ],
      [
        USER.aline,
        ORG.easymo,
        { business_id: PHARMACY, inquiry_id: inquiry.nina },
        "inquiry_id: no such inquiry",
      ],
    ] as const;
    for (const [user, org, args, msg] of refusals) {
      const result = await rate(rt, user, args, { org });
      assert.equal(result.ok, false, JSON.stringify(args));
      assert.deepEqual([result.error.code, result.error.msg], ["NOT_FOUND", msg]);
    }
    assert.equal(await feedbackRows(db), 0);
    const [warehouse] = await db.query<{ feedback_count: number }>(
      "select feedback_count from public.businesses where id = $1",
      [BEAVER_WAREHOUSE],
    );
    assert.equal(warehouse.feedback_count, 0);
  },
);

dbTest("log_user_feedback_on_vendor records feedback on the caller's inquiry", async (db) => {
  const rt = await createTestRuntime(db);
  const inquiry = await inquiries(db);
  const result = await rate(rt, USER.aline, {
    business_id: PHARMACY,
    inquiry_id: inquiry.aline,
    rating: 5,
  });
  assert.ok(result.ok, JSON.stringify(result));
  // Staff may file feedback on any inquiry of their org.
  const staff = await rate(rt, USER.jean, { business_id: PHARMACY, inquiry_id: inquiry.eric });
  assert.ok(staff.ok, JSON.stringify(staff));
  const [pharmacy] = await db.query<{ feedback_count: number; confirmation_accuracy: number }>(
    "select feedback_count, confirmation_accuracy from public.businesses where id = $1",
    [PHARMACY],
  );
  assert.deepEqual(pharmacy, { feedback_count: 2, confirmation_accuracy: 1 });
});

dbTest(
  "feedback code that skips the checks is refused by the database: NOT_FOUND or AUTH_ERROR",
  async (db) => {
    const rt = await createTestRuntime(db, { tools: [uncheckedFeedback] });
    const inquiry = await inquiries(db);
    const tool = "test.unchecked_feedback";
    // Another org's vendor: the same-org foreign key finds no such vendor here.
    const crossOrg = await rate(rt, USER.aline, { business_id: BEAVER_WAREHOUSE }, { tool });
    assert.equal(crossOrg.error.code, "NOT_FOUND");
    const crossOrgStaff = await rate(rt, USER.jean, { business_id: BEAVER_WAREHOUSE }, { tool });
    assert.equal(crossOrgStaff.error.code, "NOT_FOUND");
    // Another customer's inquiry: row-level security refuses the row.
    const othersInquiry = await rate(rt, USER.aline, {
      business_id: PHARMACY,
      inquiry_id: inquiry.eric,
    }, { tool });
    assert.equal(othersInquiry.error.code, "AUTH_ERROR");
    const otherOrgInquiry = await rate(rt, USER.aline, {
      business_id: PHARMACY,
      inquiry_id: inquiry.nina,
    }, { tool });
    assert.equal(otherOrgInquiry.error.code, "AUTH_ERROR");
    assert.equal(await feedbackRows(db), 0);
  },
);
