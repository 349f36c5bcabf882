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

Deno.test("TokenBucket.pause() holds it empty for a Retry-After, never shortening a debt", () => {
  let now = 0;
  const bucket = new TokenBucket({ perSecond: 20, now: () => now });
  bucket.pause(30_000);
  assert.equal(bucket.waitMs(), 30_000);
  now += 29_999;
  assert.equal(bucket.available(), 0);
  now += 1;
  assert.equal(bucket.available(), 1);
  bucket.pause(60_000);
  bucket.pause(1_000);
  assert.equal(bucket.waitMs(), 60_000);
});
