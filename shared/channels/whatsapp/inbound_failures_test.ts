import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { ORG } from "@testing/seed.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import type { Queryable } from "@shared/db/types.ts";
import { parseDelivery } from "./inbound.ts";
import { storeInbound } from "./ingest.ts";
import { messageDelivery } from "./payloads.ts";
import { createInboundProcessor, type InboundFailure } from "./inbound_processor.ts";

async function store(db: TestDatabase, wamid: string, text: string): Promise<void> {
  const delivery = parseDelivery(messageDelivery({ from: "250788000001", wamid }, { text }));
  assert.ok(delivery);
  await storeInbound(db, ORG.easymo, delivery.messages);
}

async function state(db: TestDatabase, wamid: string) {
  const [row] = await db.query<{ status: string; attempts: number }>(
    "select status, attempts from private.wa_inbound where wamid = $1",
    [wamid],
  );
  return row;
}

dbTest(
  "a message given up stages its failure's work in the transaction that marks it failed; when staging fails, a later sweep gives it up again",
  async (db) => {
    await store(db, "wamid.DOOMED", "Muraho, ndashaka imiti");
    await db.exec("create table public.test_failure_work (wamid text primary key, text text)");
    const log = memoryLogger();
    let stagingFails = true;
    let after = 0;
    const processor = createInboundProcessor({
      db,
      log,
      maxAttempts: 1,
      // Long enough that no lease renewal is in flight when the test ends the lease itself
      // (a 50 ms lease renewed every 50 ms could land after that update on a busy machine).
      leaseMs: 60_000,
      handle: () => Promise.reject(new Error("handler exploded")),
      async onFailed(failure: InboundFailure, tx: Queryable) {
        await tx.query("insert into public.test_failure_work values ($1, $2)", [
          failure.wamid,
          failure.text,
        ]);
        if (stagingFails) throw new Error("staging failed");
      },
      afterFailed: () => {
        after++;
        return Promise.resolve();
      },
    });
    await processor.process(["wamid.DOOMED"]);
    // Staging failed: neither the mark nor the work committed; the claim stands until its lease ends.
    assert.deepEqual(await state(db, "wamid.DOOMED"), { status: "processing", attempts: 1 });
    assert.equal((await db.query("select 1 from public.test_failure_work")).length, 0);
    assert.equal(after, 0);
    assert.ok(log.lines.some((line) => line.event === "wa_inbound_failure_not_recorded"));

    stagingFails = false;
    await db.query("update private.wa_inbound set locked_until = now() - interval '1 second'");
    assert.equal(await processor.sweep(), 0);
    assert.deepEqual(await state(db, "wamid.DOOMED"), { status: "failed", attempts: 1 });
    assert.deepEqual(await db.query("select wamid, text from public.test_failure_work"), [
      { wamid: "wamid.DOOMED", text: "Muraho, ndashaka imiti" },
    ]);
    assert.equal(after, 1);
    const gaveUp = log.lines.filter((line) => line.event === "wa_inbound_gave_up");
    assert.equal(gaveUp.length, 1);
    // The customer's words never reach a log line.
    assert.equal(gaveUp[0].text, undefined);
    assert.equal(JSON.stringify(log.lines).includes("ndashaka"), false);
    // Given up once: further sweeps stage nothing more.
    assert.equal(await processor.sweep(), 0);
    assert.equal(after, 1);
    await processor.stop();
  },
);
