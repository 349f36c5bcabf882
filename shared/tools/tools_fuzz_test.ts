/**
 * Every registered tool, fed hostile inputs derived from its own input
 * schema, through the real pipeline and database: no input may end in
 * INTERNAL_ERROR or leak a stack trace.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ToolResult } from "@shared/contract/mod.ts";
import { dbTest } from "@shared/db/testing.ts";
import { toJsonSchema } from "@shared/export/json_schema.ts";
import type { Caller } from "@shared/pipeline/invoke.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import {
  fromJsonSchema,
  leakIn,
  mutationsOf,
  ResultTally,
  stringsIn,
} from "@shared/testing/fuzz.ts";
import { createTestRuntime, type TestRuntime } from "@shared/testing/runtime.ts";
import { ORG, USER } from "@shared/testing/seed.ts";

/** Inputs tried per tool and backend: enough to meet each hostile value, well under a minute. */
const RUNS_PER_TOOL = Number(Deno.env.get("FUZZ_RUNS") ?? 200);
/** Replays a reported failure: `FUZZ_SEED=<seed from the report>`. */
const SEED = Deno.env.get("FUZZ_SEED") ? Number(Deno.env.get("FUZZ_SEED")) : undefined;

const CALLERS: Record<string, Caller> = {
  customer: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
  staff: { claims: { sub: USER.jean, role: "authenticated" }, org_id: ORG.easymo },
  service: { claims: { role: "service_role" }, org_id: ORG.easymo },
};

/** Every id in the seed, so generated references sometimes hit real rows. */
export async function seededIds(): Promise<string[]> {
  const seed = await Deno.readTextFile(new URL("../../supabase/seed.sql", import.meta.url));
  return [...new Set(seed.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g))];
}

/** Hostile inputs for one tool: schema-derived, and mutations of its examples. */
export function hostileInputs(tool: AnyTool, ids: readonly string[]): fc.Arbitrary<unknown> {
  const examples = tool.examples.map((example) => example.input);
  const words = [...stringsIn(examples), "+250788000004", "250788000004", "0788000004"];
  const derived = fromJsonSchema(toJsonSchema(tool), { words, ids });
  return examples.length === 0 ? derived : fc.oneof(derived, ...examples.map(mutationsOf));
}

/** Calls as `caller`, confirming when asked to, and returns every result seen. */
export async function callConfirming(
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

/** The failure of a result, or null when it is one the contract allows. */
export function contractBreach(result: ToolResult): string | null {
  const serialised = JSON.stringify(result);
  if (!result.ok && result.error.code === "INTERNAL_ERROR") return "INTERNAL_ERROR";
  const leak = leakIn(serialised);
  return leak ? `leaks ${JSON.stringify(leak)}` : null;
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
