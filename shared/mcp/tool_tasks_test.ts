import assert from "node:assert/strict";
import { z } from "zod";
import { fail, ok } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { decodeTaskId, encodeTaskId, failedTask, taskFromStatus } from "./tool_tasks.ts";

const long = defineTool({
  name: "long_job",
  title: "Long job",
  description: "Starts a job.",
  category: "testing",
  input: z.object({}),
  output: z.object({ id: z.string() }),
  examples: [{ input: {} }],
  sideEffects: "writes.test",
  task: {
    jobId: (data) => data.id,
    statusTool: "long_job_status",
    statusArgs: (id) => ({ id }),
    state: (data) => {
      const status = (data as { status?: string }).status;
      return status === "done" ? { status: "completed" } : status ? { status: "working" } : null;
    },
  },
  execute: () => Promise.resolve({ id: "j1" }),
});
const NOW = new Date("2026-11-27T10:00:00Z");
const REF = { tool: "long_job", job: "j1", createdAt: "2026-11-27T09:00:00.000Z" };

Deno.test("encodeTaskId() and decodeTaskId() round-trip, and a made-up id is no task", () => {
  assert.deepEqual(decodeTaskId(encodeTaskId(REF)), REF);
  const failed = { ...REF, job: "", failure: '{"ok":false}' };
  assert.deepEqual(decodeTaskId(encodeTaskId(failed)), failed);
  for (const bad of ["", "%%%", btoa("[1,2]"), "x".repeat(2000)]) {
    assert.throws(() => decodeTaskId(bad), /Task not found/);
  }
});

Deno.test("taskFromStatus() reads the job's state; another caller's job is no task", () => {
  assert.equal(taskFromStatus(long, REF, ok({ status: "running" }), NOW).status, "working");
  const done = taskFromStatus(long, REF, ok({ status: "done" }), NOW);
  assert.deepEqual([done.status, done.createdAt, done.lastUpdatedAt, done.pollInterval], [
    "completed",
    REF.createdAt,
    NOW.toISOString(),
    5000,
  ]);
  // A throttled read is no verdict on the job.
  assert.equal(taskFromStatus(long, REF, fail("RATE_LIMIT"), NOW).status, "working");
  assert.throws(() => taskFromStatus(long, REF, fail("NOT_FOUND"), NOW), /Task not found/);
  assert.throws(() => taskFromStatus(long, REF, ok({}), NOW), /Task not found/);
  assert.equal(taskFromStatus(long, REF, fail("INTERNAL_ERROR"), NOW).status, "failed");
});

Deno.test("failedTask() carries the refusal of a call that started nothing", () => {
  const task = failedTask(long, REF, fail("VALIDATION_ERROR", "Bad scene"), NOW);
  assert.deepEqual([task.status, task.statusMessage], ["failed", "VALIDATION_ERROR: Bad scene"]);
});
