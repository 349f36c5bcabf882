import assert from "node:assert/strict";
import { backoffMs } from "./backoff.ts";

Deno.test("backoffMs() doubles per attempt, caps, and jitters within the upper half", () => {
  const options = { baseMs: 1000, maxMs: 10_000 };
  assert.equal(backoffMs(1, { ...options, random: () => 0 }), 500);
  assert.equal(backoffMs(1, { ...options, random: () => 0.999999 }), 1000);
  assert.equal(backoffMs(3, { ...options, random: () => 0 }), 2000);
  assert.equal(backoffMs(20, { ...options, random: () => 0.5 }), 7500);
  assert.equal(backoffMs(0, { ...options, random: () => 0 }), 500);
});
