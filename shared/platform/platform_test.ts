import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { PACKS } from "@shared/packs/mod.ts";

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
