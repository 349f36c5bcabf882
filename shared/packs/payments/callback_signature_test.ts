import assert from "node:assert/strict";
import fc from "fast-check";
import { createCallbackVerifier, signCallback } from "./callback_signature.ts";

const secret = "test-secret-0123456789";
const body = new TextEncoder().encode('{"momo_ref":"PAY-7K3QX","status":"SUCCESSFUL"}');
const T = 1_790_000_000;
const verify = createCallbackVerifier({ secret, now: () => T * 1000 });

Deno.test("a body signed with the secret inside the window passes", async () => {
  assert.deepEqual(await verify(body, await signCallback({ secret, body, timestamp: T - 299 })), {
    ok: true,
    signedAt: T - 299,
  });
});

Deno.test("missing, malformed, stale, re-dated, tampered or foreign signatures fail", async () => {
  const header = await signCallback({ secret, body, timestamp: T });
  assert.deepEqual(await verify(body, null), { ok: false, reason: "missing" });
  assert.deepEqual(await verify(body, "sha256=abc"), { ok: false, reason: "malformed" });
  const old = await signCallback({ secret, body, timestamp: T - 301 });
  assert.deepEqual(await verify(body, old), { ok: false, reason: "stale" });
  const future = await signCallback({ secret, body, timestamp: T + 301 });
  assert.deepEqual(await verify(body, future), { ok: false, reason: "stale" });
  // The timestamp is inside the MAC: moving it breaks the signature.
  const redated = header.replace(`t=${T}`, `t=${T - 1}`);
  assert.deepEqual(await verify(body, redated), { ok: false, reason: "mismatch" });
  const tampered = new TextEncoder().encode('{"momo_ref":"PAY-7K3QX","status":"FAILED"}');
  assert.deepEqual(await verify(tampered, header), { ok: false, reason: "mismatch" });
  const foreign = await signCallback({ secret: "another-secret-0123456", body, timestamp: T });
  assert.deepEqual(await verify(body, foreign), { ok: false, reason: "mismatch" });
});

Deno.test("short secrets are refused when building", () => {
  assert.throws(() => createCallbackVerifier({ secret: "short" }), RangeError);
});

Deno.test("property: any header string is answered, never thrown", async () => {
  await fc.assert(fc.asyncProperty(fc.string(), fc.uint8Array(), async (header, raw) => {
    const result = await verify(raw, header);
    assert.equal(result.ok, false);
  }));
});
