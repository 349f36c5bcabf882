/**
 * The forwarder verifier on PGlite and Postgres: a signature proves one
 * device, under its own key only, while it is not revoked; every other
 * request is refused, for a reason that is logged and never answered.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { dbTest } from "@testing/db.ts";
import { ORG } from "@testing/seed.ts";
import { SIGNATURE_HEADER, signCallback } from "./callback_signature.ts";
import { createForwarderVerifier, DEVICE_HEADER, signForwarded } from "./forwarder_auth.ts";
import { addForwarder, revokeForwarder, rotateForwarder } from "./sms_forwarders.ts";

const T = 1_790_000_000;
const SERVICE = { role: "service_role" as const };
const body = new TextEncoder().encode('{"sender":"M-Money","text":"You have received 5,000 RWF"}');

dbTest(
  "createForwarderVerifier() accepts a device's own signature and names its device and org",
  async (db) => {
    const verify = createForwarderVerifier({ db, now: () => T * 1000 });
    const till = await addForwarder(db, SERVICE, { orgId: ORG.beaver, label: "Till" });
    const headers = await signForwarded({
      deviceId: till.device_id,
      secret: till.secret,
      body,
      timestamp: T - 299,
    });
    assert.deepEqual(await verify(body, new Headers(headers)), {
      ok: true,
      device: { deviceId: till.device_id, orgId: ORG.beaver },
      signedAt: T - 299,
    });
  },
);

dbTest(
  "createForwarderVerifier() refuses another device's name, a revoked or rotated-out key, and unknown devices",
  async (db) => {
    const verify = createForwarderVerifier({ db, now: () => T * 1000 });
    const a = await addForwarder(db, SERVICE, { orgId: ORG.beaver, label: "A" });
    const b = await addForwarder(db, SERVICE, { orgId: ORG.easymo, label: "B" });
    const signed = (deviceId: string, secret: string, timestamp = T) =>
      signForwarded({ deviceId, secret, body, timestamp }).then((h) => new Headers(h));

    // A's key, naming B (another org's device): B's key does not verify it.
    assert.deepEqual(await verify(body, await signed(b.device_id, a.secret)), {
      ok: false,
      reason: "mismatch",
    });
    // A wrong secret, a device nobody registered.
    assert.deepEqual(await verify(body, await signed(a.device_id, "fwd_sk_guessed-secret-0000")), {
      ok: false,
      reason: "mismatch",
    });
    assert.deepEqual(await verify(body, await signed("fwd-nobody", a.secret)), {
      ok: false,
      reason: "unknown_device",
    });
    // Rotated: the old secret stops, the new one works.
    const rotated = await rotateForwarder(db, SERVICE, a.device_id);
    assert.deepEqual(await verify(body, await signed(a.device_id, a.secret)), {
      ok: false,
      reason: "mismatch",
    });
    assert.equal((await verify(body, await signed(a.device_id, rotated.secret))).ok, true);
    // Revoked: nothing it signs is accepted, with the answer of a device that does not exist.
    await revokeForwarder(db, SERVICE, a.device_id);
    assert.deepEqual(await verify(body, await signed(a.device_id, rotated.secret)), {
      ok: false,
      reason: "unknown_device",
    });
    // A stale time, no device, a malformed device id: refused before any key is read.
    assert.deepEqual(await verify(body, await signed(b.device_id, b.secret, T - 301)), {
      ok: false,
      reason: "stale",
    });
    const unnamed = await signed(b.device_id, b.secret);
    unnamed.delete(DEVICE_HEADER);
    assert.deepEqual(await verify(body, unnamed), { ok: false, reason: "malformed" });
    const spaced = await signed(b.device_id, b.secret);
    spaced.set(DEVICE_HEADER, "two words");
    assert.deepEqual(await verify(body, spaced), { ok: false, reason: "malformed" });
    assert.deepEqual(await verify(body, new Headers({ [DEVICE_HEADER]: b.device_id })), {
      ok: false,
      reason: "missing",
    });
    // The body is inside the MAC.
    const tampered = new TextEncoder().encode(
      '{"sender":"M-Money","text":"You have received 9,000 RWF"}',
    );
    assert.deepEqual(await verify(tampered, await signed(b.device_id, b.secret)), {
      ok: false,
      reason: "mismatch",
    });
  },
);

dbTest(
  "createForwarderVerifier() compares every byte of the MAC: one flipped bit anywhere is refused",
  async (db) => {
    const verify = createForwarderVerifier({ db, now: () => T * 1000 });
    const till = await addForwarder(db, SERVICE, { orgId: ORG.beaver, label: "Till" });
    const header = await signCallback({ secret: till.secret, body, timestamp: T });
    const mac = header.slice(header.indexOf("v1=") + 3);
    // A MAC with one nibble changed at the first, a middle or the last position, never accepted:
    // the comparison is crypto.subtle.verify's over the whole MAC, not a prefix or a sample.
    for (const at of [0, 31, 63]) {
      const flipped = mac.slice(0, at) + ((parseInt(mac[at], 16) ^ 1).toString(16)) +
        mac.slice(at + 1);
      const headers = new Headers({
        [DEVICE_HEADER]: till.device_id,
        [SIGNATURE_HEADER]: `t=${T},v1=${flipped}`,
      });
      assert.deepEqual(await verify(body, headers), { ok: false, reason: "mismatch" }, `at ${at}`);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 120 }),
        fc.string({ maxLength: 200 }),
        async (d, s) => {
          const result = await verify(
            body,
            new Headers([[DEVICE_HEADER, d], [SIGNATURE_HEADER, s]].filter(
              ([, value]) => /^[\x20-\x7e]*$/.test(value),
            ) as [string, string][]),
          );
          assert.equal(result.ok, false);
        },
      ),
      { numRuns: 50 },
    );
  },
);
