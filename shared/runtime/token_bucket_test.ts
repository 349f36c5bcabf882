import assert from "node:assert/strict";
import { TokenBucket } from "./token_bucket.ts";

Deno.test("TokenBucket starts full, refills at its rate and caps at its capacity", () => {
  let now = 1_000;
  const bucket = new TokenBucket({ perSecond: 80, now: () => now });
  assert.equal(bucket.available(), 80);
  bucket.take(80);
  assert.equal(bucket.available(), 0);
  assert.equal(bucket.waitMs(), 13); // 1 token per 12.5 ms
  now += 500;
  assert.equal(bucket.available(), 40);
  now += 10_000;
  assert.equal(bucket.available(), 80);
});

Deno.test("TokenBucket can go into debt and be emptied", () => {
  let now = 0;
  const bucket = new TokenBucket({ perSecond: 10, now: () => now });
  bucket.take(12);
  assert.equal(bucket.available(), 0);
  assert.equal(bucket.waitMs(), 300); // 3 tokens to make up at 10/s
  now += 300;
  assert.equal(bucket.available(), 1);
  now += 10_000;
  bucket.empty();
  assert.equal(bucket.available(), 0);
  assert.equal(bucket.waitMs(), 100);
  assert.throws(() => new TokenBucket({ perSecond: 0, now: () => 0 }), RangeError);
});
