import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { SIGN_IN_REQUIRED } from "./caller.ts";

const STAFF = { roles: ["staff", "admin"], refusal: "Staff access only" } as const;

dbTest("resolveCaller() with a service requirement passes the service role alone", async (db) => {
  const rt = await createTestRuntime(db);
  const bearer = async (user: string | null) => `Bearer ${await rt.tokenFor(user)}`;
  const service = await rt.resolveCaller(await bearer(null), "easymo", { service: true });
  assert.ok(!("ok" in service));
  assert.equal(service.claims.role, "service_role");
  assert.equal(service.org_id, ORG.easymo);
  for (const authorization of [await bearer(USER.grace), "Bearer not-a-token", null]) {
    const refused = await rt.resolveCaller(authorization, "easymo", { service: true });
    assert.deepEqual(refused, {
      ok: false,
      error: { code: "AUTH_ERROR", msg: SIGN_IN_REQUIRED },
    });
  }
});

dbTest(
  "resolveCaller() with roles: staff act in their org by id or slug, others are refused alike",
  async (db) => {
    const rt = await createTestRuntime(db);
    const bearer = async (user: string | null) => `Bearer ${await rt.tokenFor(user)}`;
    for (const org of [ORG.easymo, "easymo", null]) {
      const jean = await rt.resolveCaller(await bearer(USER.jean), org, STAFF);
      assert.ok(!("ok" in jean), String(org));
      assert.equal(jean.org_id, ORG.easymo);
    }
    const refusal = { ok: false, error: { code: "AUTH_ERROR", msg: "Staff access only" } };
    // A customer, staff of another org, an org that does not exist, the service role.
    assert.deepEqual(await rt.resolveCaller(await bearer(USER.aline), "easymo", STAFF), refusal);
    assert.deepEqual(await rt.resolveCaller(await bearer(USER.paul), "easymo", STAFF), refusal);
    assert.deepEqual(
      await rt.resolveCaller(await bearer(USER.jean), "no-such-org", STAFF),
      refusal,
    );
    assert.deepEqual(await rt.resolveCaller(await bearer(null), "easymo", STAFF), refusal);
    const anonymous = await rt.resolveCaller(null, "easymo", STAFF);
    assert.deepEqual(anonymous, {
      ok: false,
      error: { code: "AUTH_ERROR", msg: SIGN_IN_REQUIRED },
    });
  },
);
