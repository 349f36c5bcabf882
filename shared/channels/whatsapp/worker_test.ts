import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { startTestStorage } from "@testing/storage.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { createWhatsAppWorker } from "./worker.ts";

dbTest("a started worker runs the packs' sweeps on its own; stop() ends them", async (db) => {
  const storage = await startTestStorage(db);
  const rt = await createTestRuntime(db, { provide: [{ key: FILE_STORE, value: storage.files }] });
  const sweeps = rt.platform.packs.flatMap((pack) => pack.sweeps ?? []);
  assert.ok(sweeps.length >= 2, `the packs declare sweeps: ${sweeps}`);
  const worker = createWhatsAppWorker(rt, {
    org: "easymo",
    conversation: () => Promise.reject(new Error("no messages in this test")),
    packSweepIntervalMs: 20,
  });
  const calls = async () => {
    await rt.platform.traces.flush();
    const rows = await db.query<{ tool: string; ok: boolean }>(
      "select tool, ok from public.tool_calls where tool = any($1) order by id",
      [sweeps],
    );
    return rows;
  };
  try {
    worker.start();
    let seen = await calls();
    for (let waited = 0; new Set(seen.map((row) => row.tool)).size < sweeps.length; waited++) {
      if (waited > 400) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = await calls();
    }
    // Every pack's sweep ran, without anyone calling POST /sweep, and each answered ok.
    assert.deepEqual(new Set(seen.map((row) => row.tool)), new Set(sweeps));
    assert.ok(seen.every((row) => row.ok), JSON.stringify(seen));
    await worker.stop();
    const after = (await calls()).length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await calls()).length, after, "no sweep runs after stop()");
  } finally {
    await worker.stop();
    await storage.close();
  }
});
