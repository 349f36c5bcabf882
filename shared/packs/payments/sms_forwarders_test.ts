/**
 * The forwarder registry on PGlite and Postgres: who may register, rotate,
 * revoke and list an org's devices, what is stored of a secret, and that
 * nobody but the owner reads a key.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { classifyDbError } from "@shared/db/errors.ts";
import { ToolFailure } from "@shared/contract/mod.ts";
import type { JwtClaims } from "@shared/db/types.ts";
import {
  addForwarder,
  listForwarders,
  newDeviceId,
  newForwarderSecret,
  revokeForwarder,
  rotateForwarder,
} from "./sms_forwarders.ts";

const SERVICE: JwtClaims = { role: "service_role" };
const PAUL: JwtClaims = { role: "authenticated", sub: USER.paul }; // Beaver staff
const JEAN: JwtClaims = { role: "authenticated", sub: USER.jean }; // EasyMO staff
const ALINE: JwtClaims = { role: "authenticated", sub: USER.aline }; // EasyMO customer

/** The contract code a rejection carries (a ToolFailure's, or the database error's). */
function codeOf(error: unknown): string | undefined {
  return error instanceof ToolFailure ? error.code : classifyDbError(error);
}

async function storedKey(
  db: { query<T>(sql: string, params?: unknown[]): Promise<T[]> },
  deviceId: string,
) {
  const [row] = await db.query<{ key: string }>(
    "select convert_from(hmac_key, 'UTF8') as key from private.sms_forwarder_keys where device_id = $1",
    [deviceId],
  );
  return row?.key;
}

Deno.test("newForwarderSecret() is 32 random bytes in base64url; newDeviceId() 12 base32 letters", () => {
  const secrets = new Set(Array.from({ length: 50 }, newForwarderSecret));
  assert.equal(secrets.size, 50);
  for (const secret of secrets) assert.match(secret, /^fwd_sk_[A-Za-z0-9_-]{43}$/);
  const ids = new Set(Array.from({ length: 50 }, newDeviceId));
  assert.equal(ids.size, 50);
  for (const id of ids) assert.match(id, /^fwd-[a-z2-7]{12}$/);
});

dbTest(
  "addForwarder() registers a device of the org and stores its secret as its key",
  async (db) => {
    const added = await addForwarder(db, SERVICE, { orgId: ORG.beaver, label: "Till 1" });
    assert.equal(added.org_id, ORG.beaver);
    assert.equal(added.label, "Till 1");
    assert.match(added.device_id, /^fwd-/);
    assert.equal(added.revoked_at, null);
    assert.ok(added.key_issued_at);
    assert.equal(await storedKey(db, added.device_id), added.secret);
    // Staff of the org register their own; the row records who.
    const own = await addForwarder(db, PAUL, { orgId: ORG.beaver, label: "Till 2" });
    const [row] = await db.query<{ created_by: string }>(
      "select created_by from public.sms_forwarders where device_id = $1",
      [own.device_id],
    );
    assert.equal(row.created_by, USER.paul);
    assert.notEqual(own.secret, added.secret);
  },
);

dbTest("addForwarder() is refused to staff of another org and to customers", async (db) => {
  for (
    const [who, claims, org] of [["Paul", PAUL, ORG.easymo], ["Aline", ALINE, ORG.easymo]] as const
  ) {
    await assert.rejects(
      addForwarder(db, claims, { orgId: org, label: "x" }),
      (error) => codeOf(error) === "AUTH_ERROR",
      who,
    );
  }
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.sms_forwarders",
  );
  assert.equal(n, 0);
});

dbTest("rotateForwarder() replaces the key; another org's device reads as missing", async (db) => {
  const added = await addForwarder(db, PAUL, { orgId: ORG.beaver, label: "Till" });
  const rotated = await rotateForwarder(db, PAUL, added.device_id);
  assert.notEqual(rotated.secret, added.secret);
  assert.equal(await storedKey(db, added.device_id), rotated.secret);
  // Jean (EasyMO staff) gets the answer of a device that does not exist.
  for (const device of [added.device_id, "fwd-doesnotexist"]) {
    await assert.rejects(
      rotateForwarder(db, JEAN, device),
      (error) => codeOf(error) === "NOT_FOUND",
    );
    await assert.rejects(
      revokeForwarder(db, JEAN, device),
      (error) => codeOf(error) === "NOT_FOUND",
    );
  }
  assert.equal(await storedKey(db, added.device_id), rotated.secret);
  await assert.rejects(rotateForwarder(db, SERVICE, "has space"), (e) => codeOf(e) === "NOT_FOUND");
});

dbTest(
  "revokeForwarder() deletes the key for good; rotating a revoked device is a conflict",
  async (db) => {
    const added = await addForwarder(db, SERVICE, { orgId: ORG.easymo, label: "Kiosk" });
    const revoked = await revokeForwarder(db, JEAN, added.device_id);
    assert.ok(revoked.revoked_at);
    assert.equal(await storedKey(db, added.device_id), undefined);
    const again = await revokeForwarder(db, SERVICE, added.device_id);
    assert.equal(again.revoked_at, revoked.revoked_at);
    await assert.rejects(
      rotateForwarder(db, SERVICE, added.device_id),
      (error) => codeOf(error) === "CONFLICT",
    );
    assert.equal(await storedKey(db, added.device_id), undefined);
  },
);

dbTest(
  "listForwarders() shows an org's devices to its staff and the service, never a key",
  async (db) => {
    const till = await addForwarder(db, PAUL, { orgId: ORG.beaver, label: "Till" });
    await addForwarder(db, JEAN, { orgId: ORG.easymo, label: "Kiosk" });
    await revokeForwarder(db, PAUL, till.device_id);
    const forPaul = await listForwarders(db, PAUL, ORG.beaver);
    assert.deepEqual(forPaul.map((f) => [f.device_id, f.label, f.revoked_at !== null]), [
      [till.device_id, "Till", true],
    ]);
    assert.deepEqual(Object.keys(forPaul[0]).sort(), [
      "created_at",
      "device_id",
      "key_issued_at",
      "label",
      "org_id",
      "revoked_at",
    ]);
    assert.deepEqual(await listForwarders(db, SERVICE, ORG.beaver), forPaul);
    for (const claims of [PAUL, ALINE]) {
      await assert.rejects(
        listForwarders(db, claims, ORG.easymo),
        (error) => codeOf(error) === "AUTH_ERROR",
      );
    }
  },
);

dbTest("staff cannot insert a device row or read any key directly", async (db) => {
  await assert.rejects(
    db.asCaller(
      PAUL,
      (tx) =>
        tx.query("insert into public.sms_forwarders (device_id, org_id) values ('mine', $1)", [
          ORG.beaver,
        ]),
    ),
    (error: { code?: string }) => error.code === "42501",
  );
  await addForwarder(db, PAUL, { orgId: ORG.beaver, label: "Till" });
  for (const claims of [PAUL, SERVICE]) {
    await assert.rejects(
      db.asCaller(claims, (tx) => tx.query("select hmac_key from private.sms_forwarder_keys")),
      (error: { code?: string }) => error.code === "42501",
    );
  }
  // Staff still see and remove their own org's rows.
  const seen = await db.asCaller(
    PAUL,
    (tx) => tx.query<{ device_id: string }>("select device_id from public.sms_forwarders"),
  );
  assert.equal(seen.length, 1);
  await db.asCaller(PAUL, (tx) => tx.query("delete from public.sms_forwarders"));
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from private.sms_forwarder_keys",
  );
  assert.equal(n, 0);
});
