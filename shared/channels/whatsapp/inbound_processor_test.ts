import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { parseDelivery } from "./inbound.ts";
import { storeInbound } from "./ingest.ts";
import { messageDelivery } from "./payloads.ts";
import { createInboundProcessor } from "./inbound_processor.ts";

const EASYMO = "a0000000-0000-4000-8000-000000000001";

async function store(db: TestDatabase, wamid: string, text: string): Promise<void> {
  const delivery = parseDelivery(messageDelivery({ from: "250788000001", wamid }, { text }));
  assert.ok(delivery);
  const { stored } = await storeInbound(db, EASYMO, delivery.messages);
  assert.deepEqual(stored, [wamid]);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

dbTest(
  "a turn longer than the lease is handled once, and so is the message waiting behind it",
  async (db) => {
    await store(db, "wamid.SLOW", "a long question");
    await store(db, "wamid.NEXT", "and another");
    const handled: string[] = [];
    const options = {
      db,
      log: memoryLogger(),
      // Renewed every ~330 ms: a loaded machine's late timers still renew well within it.
      leaseMs: 1_000,
      handle: async (message: { wamid: string }) => {
        handled.push(message.wamid);
        if (message.wamid === "wamid.SLOW") await wait(2_500);
      },
    };
    const first = createInboundProcessor(options);
    // A second worker sweeps all the while, as another function instance would.
    const second = createInboundProcessor(options);
    const running = first.process(["wamid.SLOW", "wamid.NEXT"]);
    let taken = 0;
    for (let i = 0; i < 25; i++) {
      await wait(100);
      taken += await second.sweep();
    }
    await running;
    await second.stop();
    assert.equal(taken, 0);
    assert.deepEqual(handled, ["wamid.SLOW", "wamid.NEXT"]);
    const rows = await db.query<{ status: string; attempts: number }>(
      "select status, attempts from private.wa_inbound order by sent_at, received_at",
    );
    assert.deepEqual(rows.map((row) => [row.status, row.attempts]), [["done", 1], ["done", 1]]);
  },
);

dbTest("a message another worker took over while it waited is not handled again", async (db) => {
  await store(db, "wamid.FIRST", "hello");
  await store(db, "wamid.TAKEN", "are you there?");
  const handled: string[] = [];
  const log = memoryLogger();
  const processor = createInboundProcessor({
    db,
    log,
    handle: async (message) => {
      handled.push(message.wamid);
      // Meanwhile another worker claimed the next message (this one stalled past its lease).
      if (message.wamid === "wamid.FIRST") {
        await db.query(
          "update private.wa_inbound set attempts = attempts + 1 where wamid = 'wamid.TAKEN'",
        );
      }
    },
  });
  await processor.process(["wamid.FIRST", "wamid.TAKEN"]);
  assert.deepEqual(handled, ["wamid.FIRST"]);
  assert.ok(log.lines.some((line) => line.event === "wa_inbound_superseded"));
  const [taken] = await db.query<{ status: string }>(
    "select status from private.wa_inbound where wamid = 'wamid.TAKEN'",
  );
  assert.equal(taken.status, "processing");
});
