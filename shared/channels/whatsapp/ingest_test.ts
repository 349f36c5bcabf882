import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { openPostgres } from "@shared/db/postgres_js.ts";
import { ORG } from "@testing/seed.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { parseDelivery } from "./inbound.ts";
import { storeInbound } from "./ingest.ts";
import { messageDelivery } from "./payloads.ts";

function message(from: string, wamid: string) {
  return parseDelivery(messageDelivery({ from, wamid }, { text: "hi" }))!.messages[0];
}

dbTest("storeInbound() stores a message's siblings when Postgres refuses it", async (db) => {
  const log = memoryLogger();
  // Past the parser, a sender Postgres's check refuses stands for any unstorable message.
  const refused = { ...message("250788000001", "wamid.BAD"), from: "not-a-number" };
  const result = await storeInbound(
    db,
    ORG.easymo,
    [message("250788000001", "wamid.A"), refused, message("250788000002", "wamid.B")],
    { log },
  );
  assert.deepEqual(result.stored.sort(), ["wamid.A", "wamid.B"]);
  assert.deepEqual(result.skipped, ["wamid.BAD"]);
  const rows = await db.query<{ wamid: string }>(
    "select wamid from private.wa_inbound order by wamid",
  );
  assert.deepEqual(rows.map((row) => row.wamid), ["wamid.A", "wamid.B"]);
  assert.deepEqual(
    log.lines.filter((line) => line.event === "wa_inbound_unstorable").map((line) => line.wamid),
    ["wamid.BAD"],
  );
  // Stored already: a re-delivery stores nothing new.
  assert.deepEqual(
    await storeInbound(db, ORG.easymo, [message("250788000001", "wamid.A")]),
    { stored: [], skipped: [] },
  );
});

Deno.test("storeInbound() throws when the database itself is unreachable, so Meta retries", async () => {
  // A real adapter pointed at a port nothing listens on.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const db = openPostgres(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`, { max: 1 });
  try {
    await assert.rejects(
      storeInbound(db, ORG.easymo, [
        message("250788000001", "wamid.A"),
        message("250788000002", "wamid.B"),
      ]),
    );
  } finally {
    await db.close();
  }
});
