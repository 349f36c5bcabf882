/**
 * Every registered tool, fed hostile inputs derived from its own input
 * schema, through the real pipeline and database: no input may end in
 * INTERNAL_ERROR or leak a stack trace.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ToolResult } from "@shared/contract/mod.ts";
import { dbTest } from "@testing/db.ts";
import type { Caller } from "@shared/auth/caller.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { contractBreach, hostileInputs, ResultTally, seededIds } from "@testing/fuzz.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

/**
 * Inputs tried per tool and backend: enough to meet each hostile value (every run draws a
 * new seed; `FUZZ_RUNS=1000` for a longer hunt).
 */
const RUNS_PER_TOOL = Number(Deno.env.get("FUZZ_RUNS") ?? 100);
/** Replays a reported failure: `FUZZ_SEED=<seed from the report>`. */
const SEED = Deno.env.get("FUZZ_SEED") ? Number(Deno.env.get("FUZZ_SEED")) : undefined;

const CALLERS: Record<string, Caller> = {
  customer: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
  staff: { claims: { sub: USER.jean, role: "authenticated" }, org_id: ORG.easymo },
  service: { claims: { role: "service_role" }, org_id: ORG.easymo },
};

/** Calls as `caller`, confirming when asked to, and returns every result seen. */
async function callConfirming(
  rt: TestRuntime,
  tool: string,
  args: unknown,
  caller: Caller,
  idempotencyKey: string,
): Promise<ToolResult[]> {
  const first = await rt.platform.call({ tool, args, caller, idempotencyKey });
  if (first.ok || first.error.code !== "CONFIRMATION_REQUIRED") return [first];
  const confirmed = await rt.platform.call({
    tool,
    args,
    caller,
    idempotencyKey,
    confirmation: first.error.confirmation?.token,
  });
  return [first, confirmed];
}

function describeInput(args: unknown): string {
  const text = JSON.stringify(
    args,
    (_key, value) =>
      typeof value === "string" && value.length > 80
        ? `${value.slice(0, 40)}…(${value.length} chars)`
        : value,
  ) ?? String(args);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** What fuzzing one tool found. */
interface ToolFuzzReport {
  /** Inputs tried. */
  inputs: number;
  /** Results by code. */
  tally: ResultTally;
  /** The first breach and fast-check's report of it (seed, counterexample), if any. */
  failure: string | null;
}

let keyCounter = 0;

async function fuzzTool(
  rt: TestRuntime,
  tool: AnyTool,
  ids: readonly string[],
): Promise<ToolFuzzReport> {
  const tally = new ResultTally();
  let inputs = 0;
  let breach: string | null = null;
  const details = await fc.check(
    fc.asyncProperty(
      hostileInputs(tool, ids),
      // Service-only tools mostly as the service (else every call stops at AUTH_ERROR).
      tool.internal
        ? fc.constantFrom("service", "service", "service", "customer")
        : fc.constantFrom(...Object.keys(CALLERS)),
      fc.boolean(),
      async (args, who, reuseKey) => {
        inputs++;
        // Now and then the previous key again: a replay or a CONFLICT, never a crash.
        const key = `fuzz-${reuseKey && keyCounter > 0 ? keyCounter : ++keyCounter}`;
        for (const result of await callConfirming(rt, tool.name, args, CALLERS[who], key)) {
          tally.add(result);
          const problem = contractBreach(result);
          if (problem) {
            breach ??= `${tool.name} as ${who}: ${problem} for ${describeInput(args)}`;
            return false;
          }
        }
        return true;
      },
    ),
    { numRuns: RUNS_PER_TOOL, seed: SEED },
  );
  const failure = details.failed
    ? `${breach ?? "property failed"}\n${fc.defaultReportMessage(details)?.slice(0, 1500)}`
    : null;
  return { inputs, tally, failure };
}

dbTest(
  "every tool answers hostile inputs without INTERNAL_ERROR or a stack trace",
  async (db, backend) => {
    const rt = await createTestRuntime(db);
    const ids = await seededIds();
    // An open inquiry, so vendor replies reach the parser and updates have rows to rank.
    const inquiry = await rt.callAs(USER.aline, "create_vendor_inquiries_and_message_vendors", {
      user_phone: "+250788000001",
      business_ids: ["c0000000-0000-4000-8000-000000000001"],
      request_type: "medicine",
      request_summary: "Paracetamol",
      consent: true,
    }, { idempotencyKey: "fuzz-setup" });
    assert.equal(inquiry.ok, true, JSON.stringify(inquiry));
    ids.push(inquiry.data.inquiry_id);

    const tools = rt.platform.list();
    assert.ok(tools.length >= 10, `expected every core tool, got ${tools.length}`);
    const total = new ResultTally();
    let inputs = 0;
    const failures: string[] = [];
    for (const tool of tools) {
      const report = await fuzzTool(rt, tool, ids);
      inputs += report.inputs;
      for (const [code, count] of report.tally.byCode) {
        total.byCode.set(code, (total.byCode.get(code) ?? 0) + count);
      }
      total.calls += report.tally.calls;
      if (report.failure) failures.push(report.failure);
      console.log(`fuzz [${backend}] ${tool.name}: ${report.inputs} inputs: ${report.tally}`);
    }
    console.log(
      `fuzz [${backend}] ${tools.length} tools, ${inputs} inputs, ${total.calls} calls: ${total}`,
    );
    assert.deepEqual(failures, []);
  },
);

// Inputs that reached the database (or a phone parser) and ended in INTERNAL_ERROR before the
// tools' schemas were built from the contract validators; each now names its field.
const KNOWN_HOSTILE: Array<
  { tool: string; as: keyof typeof CALLERS; args: unknown; path: string }
> = [
  {
    tool: "notify_staff",
    as: "customer",
    args: { channel: "inbox", payload: { reason: "help", summary: "cold\u0000food" } },
    path: "payload.summary",
  },
  {
    tool: "create_vendor_inquiries_and_message_vendors",
    as: "customer",
    args: {
      user_phone: "+250788000001",
      business_ids: ["c0000000-0000-4000-8000-000000000001"],
      request_type: "medicine",
      request_summary: "Paracetamol",
      structured_payload: { item: "\u0000" },
      consent: true,
    },
    path: "structured_payload.item",
  },
  {
    tool: "inventory_check",
    as: "staff",
    args: { items: [{ name: "pa\u0000ra" }] },
    path: "items.0.name",
  },
  {
    tool: "inventory_check",
    as: "staff",
    args: { items: [{ sku: "\ud800" }] },
    path: "items.0.sku",
  },
  ...["+", "letters", "1".repeat(30), "+250 78x 000 004"].map((phone) => ({
    tool: "process_vendor_reply",
    as: "service" as const,
    args: { vendor_phone: phone, message_body: "YES 1500 2" },
    path: "vendor_phone",
  })),
  ...["+275760-09-13T00:00:00Z", "-000001-01-01T00:00:00Z", "+275760-09-13"].map((at) => ({
    tool: "search_supabase",
    as: "staff" as const,
    args: { table: "staff_tickets", filters: [{ column: "created_at", op: "gte", value: at }] },
    path: "filters.0",
  })),
  {
    tool: "analytics_log",
    as: "customer",
    args: { event: "order_started", props: [{ key: "venue", value: "a\u0000" }] },
    path: "props.0.value",
  },
  {
    tool: "search_businesses_with_tags",
    as: "customer",
    args: { query_text: "sugar", limit: 2 ** 63 },
    path: "limit",
  },
];

dbTest(
  "tools answer inputs that once crashed them with VALIDATION_ERROR naming the field",
  async (db) => {
    const rt = await createTestRuntime(db);
    let key = 0;
    for (const { tool, as, args, path } of KNOWN_HOSTILE) {
      const result = await rt.platform.call({
        tool,
        args,
        caller: CALLERS[as],
        idempotencyKey: `known-${++key}`,
      });
      const label = `${tool} ${describeInput(args)}`;
      assert.equal(
        !result.ok && result.error.code,
        "VALIDATION_ERROR",
        `${label}: ${JSON.stringify(result)}`,
      );
      assert.ok(
        !result.ok && result.error.fields?.some((field) => field.path === path),
        `${label}: expected ${path} in ${JSON.stringify(!result.ok && result.error.fields)}`,
      );
    }
    // The same tools still take ordinary input.
    const reply = await rt.platform.call({
      tool: "process_vendor_reply",
      args: { vendor_phone: "250788000004", message_body: "YES 1500 2" },
      caller: CALLERS.service,
      idempotencyKey: "known-ok",
    });
    assert.equal(!reply.ok && reply.error.code, "NOT_FOUND", JSON.stringify(reply));
    const recent = await rt.platform.call({
      tool: "search_supabase",
      args: {
        table: "staff_tickets",
        filters: [{ column: "created_at", op: "gte", value: "2025-01-01T00:00:00+02:00" }],
      },
      caller: CALLERS.staff,
    });
    assert.equal(recent.ok, true, JSON.stringify(recent));
  },
);
