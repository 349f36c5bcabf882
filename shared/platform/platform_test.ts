import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { PACKS } from "@shared/packs/mod.ts";
import { tenantRateCeilingFromEnv } from "./platform.ts";

dbTest("a pack whose settings are invalid stops the start, naming them", async (db) => {
  let checked = 0;
  const packs = PACKS.map((pack, index) =>
    index === 0
      ? {
        ...pack,
        checkSettings: () => {
          checked++;
          throw new RangeError('Cannot read EXAMPLE_SETTING: current value is "x"');
        },
      }
      : pack
  );
  await assert.rejects(createTestRuntime(db, { packs }), /EXAMPLE_SETTING/);
  assert.equal(checked, 1);
  // Every pack's own check passes on the default environment.
  const rt = await createTestRuntime(db);
  await rt.platform.close();
});

Deno.test("tenantRateCeilingFromEnv() reads calls a second and refuses anything else", () => {
  const env = (value?: string) => ({ get: () => value });
  assert.equal(tenantRateCeilingFromEnv(env()), undefined);
  assert.equal(tenantRateCeilingFromEnv(env(" ")), undefined);
  assert.deepEqual(tenantRateCeilingFromEnv(env("250")), { limit: 250, windowSec: 1 });
  for (const bad of ["0", "-5", "1.5", "1e3", "lots", "2000000000"]) {
    assert.throws(
      () => tenantRateCeilingFromEnv(env(bad)),
      (error) => error instanceof RangeError && /TOOL_TENANT_CEILING_PER_SEC/.test(error.message),
      bad,
    );
  }
});
