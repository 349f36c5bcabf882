import assert from "node:assert/strict";
import { isKept, keepWork, KEPT_WORK, keptIds } from "./kept_work.ts";

const table = { id: "table:UW3MB9", summary: "your table for 2", revision: "2026-11-28T17:00|2" };

Deno.test("kept work is kept for its agent only, by id and revision", () => {
  const memory = keepWork({}, "waiter_ai", table);
  assert.deepEqual(isKept(memory, "waiter_ai", table), true);
  // Another summary (another language) is the same work.
  assert.deepEqual(isKept(memory, "waiter_ai", { ...table, summary: "ameza y'abantu 2" }), true);
  assert.deepEqual(isKept(memory, "property", table), false);
  assert.deepEqual([...keptIds(memory, "waiter_ai")], ["table:UW3MB9"]);
  assert.deepEqual([...keptIds(memory, "property")], []);
});

Deno.test("kept work that changed since, or other work, is not kept", () => {
  const memory = keepWork({}, "waiter_ai", table);
  assert.deepEqual(
    isKept(memory, "waiter_ai", { ...table, revision: "2026-11-28T18:00|2" }),
    false,
  );
  assert.deepEqual(isKept(memory, "waiter_ai", { id: "table:96MDD5", summary: "" }), false);
  // Work with no revision is named by its id alone.
  const charge = { id: "MOMO-1", summary: "your payment" };
  const paid = keepWork(memory, "payments", charge);
  assert.deepEqual(isKept(paid, "payments", charge), true);
  assert.deepEqual(isKept(paid, "payments", { ...charge, revision: "x" }), false);
});

Deno.test("keeping adds to what other agents kept, and keeping again records the new state", () => {
  let memory: Record<string, unknown> = keepWork({}, "waiter_ai", table);
  memory = { ...memory, ...keepWork(memory, "property", { id: "ev-1", summary: "" }) };
  memory = {
    ...memory,
    ...keepWork(memory, "waiter_ai", { ...table, revision: "2026-11-28T18:00|2" }),
  };
  assert.deepEqual(memory[KEPT_WORK], {
    waiter_ai: { "table:UW3MB9": "2026-11-28T18:00|2" },
    property: { "ev-1": "" },
  });
});

Deno.test("memory holds at most 20 kept works per agent, the oldest forgotten first", () => {
  let memory: Record<string, unknown> = {};
  for (let i = 0; i < 25; i++) {
    memory = { ...memory, ...keepWork(memory, "waiter_ai", { id: `t${i}`, summary: "" }) };
  }
  const ids = [...keptIds(memory, "waiter_ai")];
  assert.deepEqual(ids.length, 20);
  assert.deepEqual(ids[0], "t5");
  assert.deepEqual(ids.at(-1), "t24");
});

Deno.test("memory that is not kept work reads as nothing kept", () => {
  for (const value of [null, "x", 3, [], { waiter_ai: "x" }]) {
    assert.deepEqual([...keptIds({ [KEPT_WORK]: value }, "waiter_ai")], []);
    assert.deepEqual(isKept({ [KEPT_WORK]: value }, "waiter_ai", table), false);
  }
});
