import assert from "node:assert/strict";
import { Deadlines } from "./deadlines.ts";

Deno.test("Deadlines fires expired entries on one timer and never a cleared one", async () => {
  const deadlines = new Deadlines();
  const fired: string[] = [];
  const late = deadlines.add(60, () => fired.push("late"));
  deadlines.add(20, () => fired.push("early"));
  const cleared = deadlines.add(10, () => fired.push("cleared"));
  deadlines.clear(cleared);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.deepEqual(fired, ["early"]);
  assert.equal(deadlines.size, 1);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.deepEqual(fired, ["early", "late"]);
  assert.equal(deadlines.size, 0);
  deadlines.clear(late); // clearing a fired deadline is harmless
});
