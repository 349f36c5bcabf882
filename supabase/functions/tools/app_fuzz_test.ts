/**
 * The `tools` function fed hostile bodies and headers: schema-derived tool
 * arguments, broken JSON, deep nesting, wrong shapes. No answer may be a 500,
 * an INTERNAL_ERROR or carry a stack trace.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { dbTest } from "@testing/db.ts";
import {
  HOSTILE_STRINGS,
  hostileInputs,
  hostileValue,
  leakIn,
  ResultTally,
  seededIds,
} from "@testing/fuzz.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { FILE_STORE, type FileStore } from "@shared/storage/file_store.ts";
import { VIDEO_PROVIDER, videoProviderElsewhere } from "@shared/packs/video/mod.ts";
import { createToolsApp } from "./app.ts";

/** Requests per backend. */
const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 300);
/** Replays a reported failure: `FUZZ_SEED=<seed from the report>`. */
const SEED = Deno.env.get("FUZZ_SEED") ? Number(Deno.env.get("FUZZ_SEED")) : undefined;

// Bodies no JSON encoder would write: they reach the body reader as they are.
const RAW_BODIES: readonly string[] = [
  "",
  "{",
  "null",
  "[]",
  "42",
  '"tool"',
  "\ufeff{}",
  '{"tool": "notify_staff", "args": {"payload": {"summary": "\\ud800"}}}',
  '{"tool": "\\u0000"}',
  '{"tool": "notify_staff", "tool": "search_supabase"}',
  '{"__proto__": {"admin": true}, "tool": "search_supabase"}',
  `{"tool": "search_supabase", "args": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
  `{"tool": "search_supabase", "args": {"limit": 1${"0".repeat(400)}}}`,
  '{"tool": "search_supabase", "args": {"limit": 1e999}}',
  `{"tool": "analytics_log", "args": {"event": "${"x".repeat(300_000)}"}}`,
];

// Header values a client can send (no NUL or line breaks: fetch refuses those itself).
const HOSTILE_HEADERS: readonly string[] = [
  "",
  " ",
  "x".repeat(8_000),
  "😀",
  "é",
  "'; drop table orders; --",
  "a0000000-0000-4000-8000-000000000001",
  "beaver-paper",
  "null",
];

function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

function headerSafe(value: string): string {
  // Headers carry bytes; map what fetch would refuse to something it takes.
  return [...value].map((char) =>
    char.charCodeAt(0) < 0x20 || char.charCodeAt(0) > 0xff ? "?" : char
  )
    .join("").slice(0, 8_000);
}

dbTest(
  "tools function answers hostile requests without a 500 or a stack trace",
  async (db, backend) => {
    // Deployed, the tools function has Storage (generate_pdf files its documents there).
    const storage = await startTestStorage(db);
    try {
      await fuzzToolsApp(db, backend, storage.files);
    } finally {
      await storage.close();
    }
  },
);

async function fuzzToolsApp(
  db: Parameters<typeof createTestRuntime>[0],
  backend: string,
  files: FileStore,
): Promise<void> {
  const rt = await createTestRuntime(db, {
    provide: [
      { key: FILE_STORE, value: files },
      // Deployed with a key, the tools function queues video jobs (the agent's sweep sends them).
      { key: VIDEO_PROVIDER, value: videoProviderElsewhere({ get: () => "sk-fuzz" }) },
    ],
  });
  const app = createToolsApp(rt);
  const ids = await seededIds();
  const tools = rt.platform.list();
  const tokens = [
    await rt.tokenFor(USER.aline),
    await rt.tokenFor(USER.jean),
    await rt.tokenFor(null),
    "not-a-token",
  ];
  const callBody = fc.oneof(
    ...tools.map((tool) =>
      fc.record({
        tool: fc.constant(tool.name),
        args: hostileInputs(tool, ids),
        idempotency_key: fc.oneof(fc.uuid(), fc.constantFrom(...HOSTILE_STRINGS)),
        confirmation: fc.option(fc.constantFrom(...HOSTILE_STRINGS), { nil: undefined }),
        trace_id: fc.option(fc.constantFrom(...HOSTILE_STRINGS), { nil: undefined }),
      }, { requiredKeys: ["tool", "args"] })
    ),
    fc.record({ tool: hostileValue(), args: hostileValue() }),
    hostileValue(),
  ).map((body) => JSON.stringify(body) ?? "undefined");
  const request = fc.record({
    body: fc.oneof({ weight: 8, arbitrary: callBody }, {
      weight: 1,
      arbitrary: fc.constantFrom(...RAW_BODIES),
    }),
    // Mostly a signed-in customer without odd headers, so most requests reach a tool.
    token: fc.oneof({ weight: 6, arbitrary: fc.constant(tokens[0]) }, {
      weight: 3,
      arbitrary: fc.constantFrom(...tokens),
    }),
    orgHeader: rarely(fc.constantFrom(...HOSTILE_HEADERS)),
    keyHeader: rarely(
      fc.oneof(fc.uuid(), fc.constantFrom(...HOSTILE_HEADERS), fc.string({ maxLength: 300 })),
    ),
  });

  const tally = new ResultTally();
  const statuses = new Map<number, number>();
  let problem: string | null = null;
  const details = await fc.check(
    fc.asyncProperty(request, async ({ body, token, orgHeader, keyHeader }) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
      };
      if (orgHeader !== undefined) headers["x-org-id"] = headerSafe(orgHeader);
      if (keyHeader !== undefined) headers["idempotency-key"] = headerSafe(keyHeader);
      const response = await app.request("/tools", { method: "POST", headers, body });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      let parsed: { ok?: boolean; error?: { code?: string } };
      try {
        parsed = JSON.parse(text);
      } catch {
        problem = `status ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`;
        return false;
      }
      if (parsed.ok === true || parsed.error?.code) tally.add(parsed as never);
      const leak = leakIn(text);
      if (response.status >= 500 || parsed.error?.code === "INTERNAL_ERROR" || leak) {
        problem = `status ${response.status} ${text.slice(0, 300)} for ${body.slice(0, 300)}`;
        return false;
      }
      return true;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  const byStatus = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}=${n}`).join(
    " ",
  );
  console.log(`fuzz http [${backend}] ${details.numRuns} requests: ${byStatus}; ${tally}`);
  assert.equal(
    details.failed,
    false,
    `${problem}\n${fc.defaultReportMessage(details)?.slice(0, 1500)}`,
  );
}
