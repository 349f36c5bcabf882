import assert from "node:assert/strict";
import {
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  emptyCheckpoint,
  ERROR,
  INTERRUPT,
} from "@langchain/langgraph-checkpoint";
import { Annotation, Command, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import { dbTest } from "@testing/db.ts";
import type { Database } from "@shared/db/types.ts";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DatabaseCheckpointSaver } from "./checkpointer.ts";

function checkpointWithId(id: string, values: Record<string, unknown> = {}): Checkpoint {
  return { ...emptyCheckpoint(), id, channel_values: values };
}

function meta(step: number, extra: Record<string, unknown> = {}): CheckpointMetadata {
  return { source: "loop", step, parents: {}, ...extra };
}

function config(threadId: string, checkpointId?: string): RunnableConfig {
  return {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: "",
      ...(checkpointId ? { checkpoint_id: checkpointId } : {}),
    },
  };
}

async function collect(iterable: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function countRows(db: Database, threadId: string): Promise<[number, number]> {
  const [row] = await db.query<{ checkpoints: number; writes: number }>(
    `select (select count(*)::int from private.agent_checkpoints where thread_id = $1) as checkpoints,
            (select count(*)::int from private.agent_checkpoint_writes where thread_id = $1) as writes`,
    [threadId],
  );
  return [row.checkpoints, row.writes];
}

dbTest("checkpointer: put → getTuple round trip with parent and pending writes", async (db) => {
  const saver = new DatabaseCheckpointSaver({ db });
  assert.equal(await saver.getTuple(config("t1")), undefined);

  const first = await saver.put(
    config("t1"),
    checkpointWithId("1ef00000-0000-6000-8000-000000000001", { n: 1, bytes: "x" }),
    meta(-1, { source: "input" }),
    {},
  );
  assert.deepEqual(first, {
    configurable: {
      thread_id: "t1",
      checkpoint_ns: "",
      checkpoint_id: "1ef00000-0000-6000-8000-000000000001",
    },
  });
  const second = await saver.put(
    first,
    checkpointWithId("1ef00000-0000-6000-8000-000000000002", { n: 2, nested: { a: [1, 2] } }),
    meta(0, { writes: { node: { n: 2 } } }),
    {},
  );

  await saver.putWrites(second, [["n", 3], ["log", { text: "hé" }]], "task-b");
  await saver.putWrites(second, [["n", 4]], "task-a");
  // Idempotent: the same regular write again keeps the first value.
  await saver.putWrites(second, [["n", 99]], "task-a");
  // Special channels use fixed negative indexes and are replaced.
  await saver.putWrites(second, [[ERROR, { message: "first" }]], "task-c");
  await saver.putWrites(second, [[ERROR, { message: "second" }]], "task-c");

  const latest = await saver.getTuple(config("t1"));
  assert.ok(latest);
  assert.deepEqual(latest.config, second);
  assert.deepEqual(latest.checkpoint.channel_values, { n: 2, nested: { a: [1, 2] } });
  assert.deepEqual(latest.metadata, meta(0, { writes: { node: { n: 2 } } }));
  assert.deepEqual(latest.parentConfig, first);
  assert.deepEqual(latest.pendingWrites, [
    ["task-a", "n", 4],
    ["task-b", "n", 3],
    ["task-b", "log", { text: "hé" }],
    ["task-c", ERROR, { message: "second" }],
  ]);

  const byId = await saver.getTuple(first);
  assert.ok(byId);
  assert.deepEqual(byId.config, first);
  assert.deepEqual(byId.checkpoint.channel_values, { n: 1, bytes: "x" });
  assert.equal(byId.parentConfig, undefined);
  assert.deepEqual(byId.pendingWrites, []);
  assert.equal(
    await saver.getTuple(config("t1", "1ef00000-0000-6000-8000-00000000ffff")),
    undefined,
  );
  assert.equal(await saver.get(config("other")), undefined);

  // Raw bytes round-trip through the "bytes" serialisation type.
  const third = await saver.put(
    second,
    checkpointWithId("1ef00000-0000-6000-8000-000000000003"),
    meta(1),
    {},
  );
  await saver.putWrites(third, [["blob", new Uint8Array([0, 1, 255])]], "task-d");
  const withBlob = await saver.getTuple(third);
  assert.deepEqual(withBlob?.pendingWrites, [["task-d", "blob", new Uint8Array([0, 1, 255])]]);

  await assert.rejects(() => saver.put({ configurable: {} }, emptyCheckpoint(), meta(0), {}));
});

dbTest("checkpointer: list is newest first and honours limit, before and filter", async (db) => {
  const saver = new DatabaseCheckpointSaver({ db, pageSize: 2 });
  const ids = [1, 2, 3, 4, 5].map((i) => `1ef00000-0000-6000-8000-00000000000${i}`);
  let parent = config("t2");
  for (const [i, id] of ids.entries()) {
    parent = await saver.put(
      parent,
      checkpointWithId(id),
      meta(i, { source: i % 2 === 0 ? "loop" : "update", tag: { even: i % 2 === 0 } }),
      {},
    );
  }
  await saver.put(config("elsewhere"), checkpointWithId(ids[4]), meta(0), {});
  await saver.putWrites(config("t2", ids[2]), [["x", 1]], "task");

  const all = await collect(saver.list(config("t2")));
  assert.deepEqual(all.map((t) => t.checkpoint.id), [...ids].reverse());
  assert.deepEqual(all[2].pendingWrites, [["task", "x", 1]]);
  assert.deepEqual(all[0].parentConfig?.configurable?.checkpoint_id, ids[3]);

  const limited = await collect(saver.list(config("t2"), { limit: 3 }));
  assert.deepEqual(limited.map((t) => t.checkpoint.id), [ids[4], ids[3], ids[2]]);

  const before = await collect(saver.list(config("t2"), { before: config("t2", ids[3]) }));
  assert.deepEqual(before.map((t) => t.checkpoint.id), [ids[2], ids[1], ids[0]]);

  const filtered = await collect(saver.list(config("t2"), { filter: { source: "loop" } }));
  assert.deepEqual(filtered.map((t) => t.checkpoint.id), [ids[4], ids[2], ids[0]]);
  const nested = await collect(
    saver.list(config("t2"), { filter: { tag: { even: false } }, limit: 1 }),
  );
  assert.deepEqual(nested.map((t) => t.checkpoint.id), [ids[3]]);
  const combined = await collect(
    saver.list(config("t2"), {
      filter: { source: "loop" },
      before: config("t2", ids[4]),
      limit: 1,
    }),
  );
  assert.deepEqual(combined.map((t) => t.checkpoint.id), [ids[2]]);
  assert.deepEqual(await collect(saver.list(config("t2"), { filter: { step: 42 } })), []);
  assert.deepEqual(await collect(saver.list(config("t2"), { limit: 0 })), []);

  const everyThread = await collect(saver.list({ configurable: {} }));
  assert.equal(everyThread.length, 6);
  const one = await collect(saver.list(config("t2", ids[1])));
  assert.deepEqual(one.map((t) => t.checkpoint.id), [ids[1]]);
});

const Counter = Annotation.Root({
  steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  total: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

function counterGraph(saver: DatabaseCheckpointSaver) {
  return new StateGraph(Counter)
    .addNode("first", () => ({ steps: ["first"], total: 1 }))
    .addNode("second", () => ({ steps: ["second"], total: 10 }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
}

dbTest("checkpointer: a LangGraph thread continues on a new saver (restart)", async (db) => {
  const thread = { configurable: { thread_id: "conversation-1" } };
  const before = await counterGraph(new DatabaseCheckpointSaver({ db })).invoke({}, thread);
  assert.deepEqual(before, { steps: ["first", "second"], total: 11 });

  // A restart: a new saver and a new compiled graph over the same database.
  const graph = counterGraph(new DatabaseCheckpointSaver({ db }));
  const state = await graph.getState(thread);
  assert.deepEqual(state.values, { steps: ["first", "second"], total: 11 });
  assert.deepEqual(state.next, []);

  const after = await graph.invoke({ steps: ["input"] }, thread);
  assert.deepEqual(after, { steps: ["first", "second", "input", "first", "second"], total: 22 });
  const history = [];
  for await (const snapshot of graph.getStateHistory(thread)) history.push(snapshot);
  // Two runs × 4 checkpoints: input, input applied, after first, after
  // second; the second run's steps continue from the first's (the restart lost nothing).
  assert.deepEqual(
    history.map((s) => [s.metadata?.source, s.metadata?.step]),
    [["loop", 6], ["loop", 5], ["loop", 4], ["input", 3], ["loop", 2], ["loop", 1], ["loop", 0], [
      "input",
      -1,
    ]],
  );
  assert.deepEqual(history[0].values, after);
});

const Approval = Annotation.Root({
  request: Annotation<string>(),
  answer: Annotation<string>(),
});

dbTest("checkpointer: interrupt() survives a restart and a duplicated resume", async (db) => {
  let sideEffects = 0;
  let asked = 0;
  const approvalGraph = (saver: DatabaseCheckpointSaver) =>
    new StateGraph(Approval)
      .addNode("ask", (state) => {
        asked += 1;
        const answer = interrupt<{ question: string }, string>({
          question: `OK ${state.request}?`,
        });
        sideEffects += 1; // e.g. sending a WhatsApp message: must happen once.
        return { answer };
      })
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile({ checkpointer: saver });
  const thread = { configurable: { thread_id: "conversation-2" } };

  const paused = await approvalGraph(new DatabaseCheckpointSaver({ db })).invoke(
    { request: "order 7" },
    thread,
  );
  const interrupts = (paused as Record<string, unknown>)[INTERRUPT];
  assert.ok(Array.isArray(interrupts));
  assert.deepEqual(interrupts.map((i: { value: unknown }) => i.value), [{
    question: "OK order 7?",
  }]);
  assert.equal(sideEffects, 0);

  // The restart: a new saver sees the pending interrupt and resumes it.
  const restarted = approvalGraph(new DatabaseCheckpointSaver({ db }));
  const pending = await restarted.getState(thread);
  assert.deepEqual(pending.next, ["ask"]);
  assert.equal(pending.tasks[0].interrupts.length, 1);

  const done = await restarted.invoke(new Command({ resume: "yes" }), thread);
  assert.deepEqual(done, { request: "order 7", answer: "yes" });
  assert.equal(sideEffects, 1);
  assert.equal(asked, 2); // The node re-runs from the top on resume, as LangGraph documents.

  // The same resume delivered again (e.g. a redelivered webhook) on the finished thread:
  // nothing is waiting for it, so no node runs and the side effect is not repeated.
  const again = await approvalGraph(new DatabaseCheckpointSaver({ db })).invoke(
    new Command({ resume: "yes" }),
    thread,
  );
  assert.deepEqual(again, { request: "order 7", answer: "yes" });
  assert.equal(sideEffects, 1);
  assert.equal(asked, 2);
  const finalState = await restarted.getState(thread);
  assert.deepEqual(finalState.next, []);

  // LangGraph stored that stray resume as a `__resume__` write of the null task on the latest
  // checkpoint; it must not answer the next question on the thread.
  const nextTurn = await restarted.invoke({ request: "order 8" }, thread);
  const nextInterrupts = (nextTurn as Record<string, unknown>)[INTERRUPT];
  assert.ok(Array.isArray(nextInterrupts));
  assert.deepEqual(nextInterrupts.map((i: { value: unknown }) => i.value), [{
    question: "OK order 8?",
  }]);
  assert.equal(sideEffects, 1);
});

dbTest("checkpointer: deleteThread removes checkpoints and writes", async (db) => {
  const saver = new DatabaseCheckpointSaver({ db });
  const keep = await saver.put(config("keep"), checkpointWithId("1ef0-keep"), meta(0), {});
  await saver.putWrites(keep, [["x", 1]], "task");
  const first = await saver.put(config("gone"), checkpointWithId("1ef0-a"), meta(0), {});
  const nested = await saver.put(
    { configurable: { thread_id: "gone", checkpoint_ns: "child:1" } },
    checkpointWithId("1ef0-b"),
    meta(0),
    {},
  );
  await saver.putWrites(first, [["x", 1], [INTERRUPT, { value: 1 }]], "task");
  await saver.putWrites(nested, [["y", 2]], "task");
  assert.deepEqual(await countRows(db, "gone"), [2, 3]);

  await saver.deleteThread("gone");
  assert.deepEqual(await countRows(db, "gone"), [0, 0]);
  assert.equal(await saver.getTuple(config("gone")), undefined);
  assert.deepEqual(await countRows(db, "keep"), [1, 1]);
  assert.ok(await saver.getTuple(config("keep")));
});
