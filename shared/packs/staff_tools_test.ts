// Staff tools are refused to everyone else by their descriptor (`auth:
// "staff"`), in the pipeline's policy step: before the arguments are read,
// so a customer who calls one directly, with arguments that would pass,
// gets AUTH_ERROR and no confirmation read-back, spends no rate token and
// leaves no idempotency row. And the lists (the tools function's, MCP's
// tools/list, both `callerTools`) do not offer them to a customer.
import assert from "node:assert/strict";
import type { ResolvedCaller } from "@shared/auth/caller.ts";
import { callerTools } from "@shared/pipeline/caller_tools.ts";
import { STAFF_ONLY } from "@shared/pipeline/steps/policy.ts";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

// The packs' staff tools: each must say so in its descriptor.
const STAFF_TOOLS = [
  "broadcast_cancel",
  "broadcast_schedule",
  "broadcast_status",
  "broadcast_templates",
  "funnel_report",
  "payment_confirm_by_staff",
  "property_listing_review",
  "property_listings_queue",
  "sora_generate_video",
  "sora_remix_video",
  "video_job_status",
];

dbTest(
  "a customer calling a staff tool directly is refused first: no read-back, no rate token, no ledger row",
  async (db) => {
    const rt = await createTestRuntime(db);
    const staffTools = rt.platform.getToolsForTenant(ORG.easymo)
      .filter((tool) => tool.auth === "staff");
    const names = staffTools.map((tool) => tool.name);
    for (const name of STAFF_TOOLS) assert.ok(names.includes(name), `${name} is auth: "staff"`);
    for (const tool of staffTools) {
      // The tool's own example: arguments that pass validation, so only the policy stops it.
      const answer = await rt.callAs(USER.aline, tool.name, tool.examples[0].input, {
        idempotencyKey: crypto.randomUUID(),
      });
      assert.deepEqual(
        answer,
        { ok: false, error: { code: "AUTH_ERROR", msg: STAFF_ONLY } },
        tool.name,
      );
    }
    const [spent] = await db.query<{ buckets: number; keys: number }>(
      `select (select count(*)::int from private.rate_buckets where tool = any($1)) as buckets,
              (select count(*)::int from private.idempotency_keys where tool = any($1)) as keys`,
      [names],
    );
    assert.deepEqual(spent, { buckets: 0, keys: 0 });

    // Staff pass the same gate: a read answers, a confirmRequired tool reads back what it makes.
    const templates = await rt.callAs(USER.jean, "broadcast_templates", {});
    assert.equal(templates.ok, true, JSON.stringify(templates));
    const video = rt.platform.registry.get("sora_generate_video")!;
    const asked = await rt.callAs(USER.jean, video.name, video.examples[0].input, {
      idempotencyKey: crypto.randomUUID(),
    });
    assert.equal(asked.ok, false);
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED", JSON.stringify(asked));
    const [taken] = await db.query<{ n: number }>(
      "select count(*)::int as n from private.rate_buckets where tool = any($1) and subject = $2",
      [names, USER.jean],
    );
    assert.ok(taken.n >= 1, "a staff member's calls draw from their buckets");
  },
);

dbTest("callerTools() offers staff tools to the org's staff and the service only", async (db) => {
  const rt = await createTestRuntime(db);
  const listed = (caller: ResolvedCaller) => {
    const tools = callerTools(rt.platform, caller);
    assert.ok(tools.ok);
    return tools.tools.filter((tool) => STAFF_TOOLS.includes(tool.name)).length;
  };
  const member = (sub: string, role: string): ResolvedCaller => ({
    claims: { sub, role: "authenticated" },
    org_id: ORG.easymo,
    memberships: [{ org_id: ORG.easymo, role }],
  });
  assert.equal(listed(member(USER.aline, "customer")), 0);
  assert.equal(listed(member(USER.eric, "vendor")), 0);
  assert.equal(listed(member(USER.jean, "staff")), STAFF_TOOLS.length);
  assert.equal(listed(member(USER.grace, "admin")), STAFF_TOOLS.length);
  // Staff of another org only.
  assert.equal(
    listed({
      claims: { sub: USER.paul, role: "authenticated" },
      org_id: ORG.easymo,
      memberships: [{ org_id: ORG.beaver, role: "staff" }],
    }),
    0,
  );
  assert.equal(
    listed({ claims: { role: "service_role" }, org_id: ORG.easymo, memberships: [] }),
    STAFF_TOOLS.length,
  );
});
