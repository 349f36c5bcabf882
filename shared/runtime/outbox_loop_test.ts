import assert from "node:assert/strict";
import { addRound, OutboxLoop } from "./outbox_loop.ts";

interface Counts {
  claimed: number;
  sent: number;
  waitMs: number;
}

const empty = (): Counts => ({ claimed: 0, sent: 0, waitMs: 0 });

Deno.test("addRound() sums counts and keeps the last wait", () => {
  const total = { claimed: 2, sent: 1, waitMs: 40 };
  addRound(total, { claimed: 3, sent: 3, waitMs: 0 }, "waitMs");
  assert.deepEqual(total, { claimed: 5, sent: 4, waitMs: 0 });
});

Deno.test("OutboxLoop.drain() runs rounds until none claims, waiting out throttles", async () => {
  const rounds: Counts[] = [
    { claimed: 2, sent: 2, waitMs: 0 },
    { claimed: 0, sent: 0, waitMs: 25 },
    { claimed: 1, sent: 1, waitMs: 0 },
    { claimed: 0, sent: 0, waitMs: 0 },
    { claimed: 9, sent: 9, waitMs: 0 },
  ];
  const slept: number[] = [];
  const loop = new OutboxLoop({
    round: () => Promise.resolve(rounds.shift()!),
    empty,
    waitField: "waitMs",
    sleep: (ms) => Promise.resolve(void slept.push(ms)),
    onError: (error) => assert.fail(String(error)),
  });
  assert.deepEqual(await loop.drain(), { claimed: 3, sent: 3, waitMs: 0 });
  assert.deepEqual(slept, [25]);
  assert.equal(rounds.length, 1);
});

Deno.test("OutboxLoop runs in the background without overlap, survives a failing run and stops", async () => {
  let active = 0;
  let overlapped = false;
  let runs = 0;
  const errors: unknown[] = [];
  let before = 0;
  const loop = new OutboxLoop({
    async round() {
      active++;
      overlapped ||= active > 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      active--;
      runs++;
      if (runs === 1) throw new Error("database went away");
      return empty();
    },
    empty,
    beforeRun: () => Promise.resolve(before++),
    onError: (error) => errors.push(error),
  });
  loop.start({ intervalMs: 0 });
  assert.equal(loop.running, true);
  assert.throws(() => loop.start({ intervalMs: 0 }), TypeError);
  while (runs < 4) await new Promise((resolve) => setTimeout(resolve, 1));
  await loop.stop();
  const stoppedAt = runs;
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(loop.running, false);
  assert.equal(runs, stoppedAt);
  assert.equal(active, 0);
  assert.equal(overlapped, false);
  assert.equal((errors[0] as Error).message, "database went away");
  assert.ok(before >= 2);
  assert.throws(() => loop.start({ intervalMs: -1 }), RangeError);
});
