import assert from "node:assert/strict";
import { type Deadline, Deadlines } from "./deadlines.ts";

// Behaviour, not timing: on a busy machine the event loop may reach the timer late, so the test
// asserts that nothing fires before its time, that each live deadline fires once, and that a
// cleared one never does; never how soon after its time a deadline fires. The shared timer is
// unref'd, so each test holds the event loop open with one of its own while it waits.
function holdingLoop<T>(wait: Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 1000);
  return wait.finally(() => clearInterval(hold));
}

Deno.test("Deadlines fires expired entries on one timer and never a cleared one", async () => {
  const deadlines = new Deadlines();
  const fired: Array<{ name: string; early: boolean }> = [];
  const whenFired = (name: string) => {
    const { promise, resolve } = Promise.withResolvers<void>();
    const entry: { deadline?: Deadline } = {};
    return {
      promise,
      entry,
      expire: () => {
        fired.push({ name, early: performance.now() < entry.deadline!.at });
        resolve();
      },
    };
  };
  // The later deadline is added first: the one timer must be re-armed for the earlier one.
  const late = whenFired("late");
  late.entry.deadline = deadlines.add(60, late.expire);
  const early = whenFired("early");
  early.entry.deadline = deadlines.add(20, early.expire);
  const cleared = deadlines.add(10, () => fired.push({ name: "cleared", early: false }));
  deadlines.clear(cleared);

  await holdingLoop(early.promise);
  assert.ok(fired.every((entry) => entry.name !== "late" || !entry.early));
  await holdingLoop(late.promise);
  assert.deepEqual(fired.map((entry) => entry.name).sort(), ["early", "late"]);
  assert.ok(fired.every((entry) => !entry.early), "a deadline fired before its time");
  assert.equal(deadlines.size, 0);
  deadlines.clear(late.entry.deadline); // clearing a fired deadline is harmless
});

Deno.test("Deadlines re-arms for the next pending deadline after firing one", async () => {
  const deadlines = new Deadlines();
  const order: string[] = [];
  const { promise: second, resolve } = Promise.withResolvers<void>();
  deadlines.add(5, () => order.push("first"));
  deadlines.add(30, () => {
    order.push("second");
    resolve();
  });
  await holdingLoop(second);
  assert.ok(order.includes("first") && order.includes("second"));
  assert.equal(deadlines.size, 0);
});
