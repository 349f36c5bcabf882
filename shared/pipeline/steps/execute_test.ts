import assert from "node:assert/strict";
import type { Queryable } from "@shared/db/types.ts";
import type { ToolServices } from "@shared/registry/define_tool.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { Timeout } from "./_failure.ts";
import { executeStep } from "./execute.ts";

const services = { now: () => new Date(0) } as unknown as ToolServices;

Deno.test("executeStep() runs the tool with what earlier steps set, and checks its output", async () => {
  const seen: unknown[] = [];
  const db: Queryable = { query: () => Promise.resolve([]) };
  const tool = testTool({
    execute: (args: { n: number }, ctx) => {
      seen.push(ctx.db, ctx.idempotency_key, ctx.services, ctx.prepared, ctx.org_id);
      return Promise.resolve({ n: args.n * 2 });
    },
  });
  const call = callFor(tool, {
    args: { n: 21 },
    set: { db, signal: new AbortController().signal, idempotencyKey: "k1" },
  });
  const next = answering();
  assert.deepEqual(await executeStep({ services })(call, next), { ok: true, data: { n: 42 } });
  assert.deepEqual(seen, [db, "k1", services, undefined, call.context.org_id]);
  assert.equal(next.calls.length, 0, "the last step");
});

Deno.test("executeStep() runs prepare first unless it already ran, and hands its value on", async () => {
  const prepared: number[] = [];
  const tool = testTool({
    prepare: (args: { n: number }) => {
      prepared.push(args.n);
      return Promise.resolve(args.n + 1);
    },
    execute: (_args, ctx) => Promise.resolve({ n: ctx.prepared as number }),
  });
  const signal = new AbortController().signal;
  const step = executeStep({ services });
  assert.deepEqual(await step(callFor(tool, { args: { n: 1 }, set: { signal } }), answering()), {
    ok: true,
    data: { n: 2 },
  });
  const ran = callFor(tool, { args: { n: 5 }, set: { signal, prepared: 9 } });
  assert.deepEqual(await step(ran, answering()), { ok: true, data: { n: 9 } });
  assert.deepEqual(prepared, [1]);
});

Deno.test("executeStep() throws when the output breaks the schema or the deadline passed", async () => {
  const controller = new AbortController();
  const late = testTool({
    execute: () => {
      controller.abort();
      return Promise.resolve({ n: 1 });
    },
  });
  const step = executeStep({ services });
  await assert.rejects(
    async () => await step(callFor(late, { set: { signal: controller.signal } }), answering()),
    Timeout,
  );
  const broken = testTool({ execute: () => Promise.resolve({ n: "x" } as never) });
  await assert.rejects(
    async () =>
      await step(
        callFor(broken, { set: { signal: new AbortController().signal } }),
        answering(),
      ),
    /output does not match/,
  );
});
