import assert from "node:assert/strict";
import type { Queryable } from "@shared/db/types.ts";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { buttonsMessage, templateMessage, textMessage } from "./messages.ts";
import { applyStatus, enqueueMessage, isDeliveryStatus, OutboxConflictError } from "./outbox.ts";

const WA = "250788123456";
const TEMPLATE = templateMessage({ name: "stock_check", language: "en" });

interface Row {
  status: string;
  wamid: string | null;
  last_error_code: number | null;
  last_error: string | null;
  sent_at: Date | null;
}

async function read(db: Queryable, id: string): Promise<Row> {
  const [row] = await db.query<Row>(
    "select status, wamid, last_error_code, last_error, sent_at from public.wa_outbox where id = $1",
    [id],
  );
  return row;
}

/** Queues a message and marks it sent with `wamid`, as the dispatcher would. */
async function sentMessage(
  db: Queryable,
  wamid: string,
  options: { fallback?: boolean; key?: string } = {},
): Promise<string> {
  const id = await enqueueMessage(db, {
    orgId: ORG.easymo,
    to: WA,
    message: textMessage("Is the pharmacy open?"),
    idempotencyKey: options.key ?? wamid,
    ...(options.fallback ? { fallbackTemplate: TEMPLATE } : {}),
  });
  await db.query(
    "update public.wa_outbox set status = 'sent', wamid = $2, sent_at = now(), attempts = 1 where id = $1",
    [id, wamid],
  );
  return id;
}

dbTest("enqueueMessage() queues the message with a normalised recipient", async (db) => {
  const message = buttonsMessage({ body: "Open today?", buttons: [{ id: "y", title: "Yes" }] });
  const id = await db.transaction((tx) =>
    enqueueMessage(tx, {
      orgId: ORG.easymo,
      to: "0788 123 456",
      message,
      idempotencyKey: "call-1:ask",
      fallbackTemplate: TEMPLATE,
    })
  );
  const [row] = await db.query(
    `select org_id, to_wa_id, kind, body, fallback_template, status, attempts, conversation_id
       from public.wa_outbox where id = $1`,
    [id],
  );
  assert.deepEqual(row, {
    org_id: ORG.easymo,
    to_wa_id: WA,
    kind: "buttons",
    body: message.body,
    fallback_template: TEMPLATE.body,
    status: "queued",
    attempts: 0,
    conversation_id: null,
  });
});

dbTest("enqueueMessage() with the same key twice queues one message", async (db) => {
  const options = {
    orgId: ORG.easymo,
    to: "+250788123456",
    message: textMessage("Your order is ready"),
    idempotencyKey: "order-7:ready",
  };
  const first = await db.transaction((tx) => enqueueMessage(tx, options));
  // The retry spells the number differently and rebuilds the message: same message.
  const second = await db.transaction((tx) =>
    enqueueMessage(tx, {
      ...options,
      to: "0788123456",
      message: textMessage("Your order is ready"),
    })
  );
  assert.equal(second, first);
  const rows = await db.query("select id from public.wa_outbox");
  assert.equal(rows.length, 1);
});

dbTest("enqueueMessage() run concurrently with one key queues one message", async (db) => {
  const options = {
    orgId: ORG.easymo,
    to: WA,
    message: textMessage("Hello"),
    idempotencyKey: "race",
  };
  const ids = await Promise.all([
    db.transaction((tx) => enqueueMessage(tx, options)),
    db.transaction((tx) => enqueueMessage(tx, options)),
  ]);
  assert.equal(ids[0], ids[1]);
  assert.equal((await db.query("select 1 from public.wa_outbox")).length, 1);
});

dbTest("enqueueMessage() rejects a key reused for another message", async (db) => {
  const options = {
    orgId: ORG.easymo,
    to: WA,
    message: textMessage("One"),
    idempotencyKey: "k",
  };
  await enqueueMessage(db, options);
  for (
    const other of [
      { ...options, message: textMessage("Two") },
      { ...options, to: "250788000111" },
      { ...options, orgId: ORG.beaver },
      { ...options, fallbackTemplate: TEMPLATE },
    ]
  ) {
    await assert.rejects(() => enqueueMessage(db, other), (error) => {
      assert.ok(error instanceof OutboxConflictError);
      assert.equal(error.idempotencyKey, "k");
      assert.match(error.message, /"k" was already used for another message/);
      return true;
    });
  }
});

dbTest("enqueueMessage() with firstStands keeps the first message under a used key", async (db) => {
  const busy = { orgId: ORG.easymo, to: WA, idempotencyKey: "busy:wamid.1", firstStands: true };
  const first = await enqueueMessage(db, { ...busy, message: textMessage("Please try again") });
  // Reworded on a retry (the recipient's language changed): the first stands, nothing is added.
  const again = await enqueueMessage(db, { ...busy, message: textMessage("Merci de réessayer") });
  assert.equal(again, first);
  const rows = await db.query<{ body: { text: { body: string } } }>(
    "select body from public.wa_outbox",
  );
  assert.deepEqual(rows.map((row) => row.body.text.body), ["Please try again"]);
  // Without it, the same rewording is a conflict.
  await assert.rejects(
    () => enqueueMessage(db, { ...busy, firstStands: false, message: textMessage("Réessayez") }),
    OutboxConflictError,
  );
});

dbTest("enqueueMessage() in a rolled-back transaction sends nothing", async (db) => {
  await assert.rejects(() =>
    db.transaction(async (tx) => {
      await enqueueMessage(tx, {
        orgId: ORG.easymo,
        to: WA,
        message: textMessage("Booked!"),
        idempotencyKey: "booking-1",
      });
      throw new Error("tool failed after enqueuing");
    })
  );
  assert.equal((await db.query("select 1 from public.wa_outbox")).length, 0);
});

dbTest("enqueueMessage() runs as service_role, not as an authenticated user", async (db) => {
  const options = {
    orgId: ORG.easymo,
    to: WA,
    message: textMessage("Hi"),
    idempotencyKey: "svc",
  };
  const id = await db.asService((tx) => enqueueMessage(tx, options));
  assert.equal(typeof id, "string");
  await assert.rejects(() =>
    db.asCaller(
      { role: "authenticated", sub: USER.jean },
      (tx) => enqueueMessage(tx, { ...options, idempotencyKey: "staff" }),
    )
  );
});

dbTest("enqueueMessage() rejects malformed input before touching the table", async (db) => {
  const ok = { orgId: ORG.easymo, to: WA, message: textMessage("Hi"), idempotencyKey: "x" };
  await assert.rejects(() => enqueueMessage(db, { ...ok, to: "12" }), TypeError);
  await assert.rejects(() => enqueueMessage(db, { ...ok, orgId: "easymo" }), {
    name: "TypeError",
    message: 'Cannot enqueue the message as orgId must be a uuid: current value is "easymo"',
  });
  await assert.rejects(() => enqueueMessage(db, { ...ok, idempotencyKey: "" }), TypeError);
  await assert.rejects(
    () => enqueueMessage(db, { ...ok, idempotencyKey: "k".repeat(256) }),
    TypeError,
  );
  await assert.rejects(
    () =>
      enqueueMessage(db, {
        ...ok,
        message: { kind: "text", body: { type: "text", text: { body: "", preview_url: false } } },
      }),
    { message: "Cannot enqueue the message as text.body must not be empty" },
  );
  await assert.rejects(
    () =>
      enqueueMessage(db, {
        ...ok,
        fallbackTemplate: textMessage("not a template") as unknown as typeof TEMPLATE,
      }),
    { message: /fallbackTemplate must be a template message/ },
  );
  assert.equal((await db.query("select 1 from public.wa_outbox")).length, 0);
});

dbTest("applyStatus() moves forward only: delivered after read changes nothing", async (db) => {
  const id = await sentMessage(db, "wamid.A");
  const at = new Date("2026-11-22T10:00:00Z");
  assert.equal(await applyStatus(db, { wamid: "wamid.A", status: "sent", at }), false);
  assert.equal(await applyStatus(db, { wamid: "wamid.A", status: "read", at }), true);
  assert.equal(await applyStatus(db, { wamid: "wamid.A", status: "delivered", at }), false);
  assert.equal(await applyStatus(db, { wamid: "wamid.A", status: "read", at }), false);
  assert.equal((await read(db, id)).status, "read");
});

dbTest("applyStatus() ignores failed after delivered or read", async (db) => {
  const error = { code: 131026, title: "Message undeliverable" };
  const at = new Date("2026-11-22T10:00:00Z");
  for (const [wamid, reached] of [["wamid.D", "delivered"], ["wamid.R", "read"]] as const) {
    const id = await sentMessage(db, wamid);
    await applyStatus(db, { wamid, status: reached, at });
    assert.equal(
      await applyStatus(db, { wamid, status: "failed", at, errors: [error] }),
      false,
    );
    const row = await read(db, id);
    assert.equal(row.status, reached);
    assert.equal(row.last_error_code, null);
  }
});

dbTest("applyStatus() records a failure, and a later delivered still wins", async (db) => {
  const id = await sentMessage(db, "wamid.F");
  const at = new Date("2026-11-22T10:00:00Z");
  assert.equal(
    await applyStatus(db, {
      wamid: "wamid.F",
      status: "failed",
      at,
      errors: [{
        code: 131026,
        title: "Message undeliverable",
        error_data: { details: "Recipient is not on WhatsApp" },
      }],
    }),
    true,
  );
  let row = await read(db, id);
  assert.equal(row.status, "failed");
  assert.equal(row.last_error_code, 131026);
  assert.equal(row.last_error, "Message undeliverable: Recipient is not on WhatsApp");
  assert.equal(await applyStatus(db, { wamid: "wamid.F", status: "failed", at }), false);
  // The device confirmed it: delivered outranks failed; the error stays for the record.
  assert.equal(await applyStatus(db, { wamid: "wamid.F", status: "delivered", at }), true);
  row = await read(db, id);
  assert.equal(row.status, "delivered");
  assert.equal(row.last_error_code, 131026);
});

dbTest("applyStatus() is false for unknown wamids and rejects unknown statuses", async (db) => {
  const at = new Date();
  assert.equal(await applyStatus(db, { wamid: "wamid.nope", status: "delivered", at }), false);
  await assert.rejects(
    () => applyStatus(db, { wamid: "wamid.nope", status: "deleted" as "read", at }),
    { name: "TypeError", message: /must be sent, delivered, read or failed/ },
  );
  assert.equal(isDeliveryStatus("failed"), true);
  assert.equal(isDeliveryStatus("played"), false);
});

dbTest(
  "applyStatus() requeues a 131047 failure once when a fallback template exists",
  async (db) => {
    const id = await sentMessage(db, "wamid.RE", { fallback: true });
    const at = new Date("2026-11-22T10:00:00Z");
    const errors = [{ code: 131047, title: "Re-engagement message" }];
    assert.equal(await applyStatus(db, { wamid: "wamid.RE", status: "failed", at, errors }), true);
    let row = await read(db, id);
    assert.equal(row.status, "queued");
    assert.equal(row.wamid, null);
    assert.equal(row.last_error_code, 131047);
    // Meta re-delivers the webhook: the old wamid no longer matches.
    assert.equal(await applyStatus(db, { wamid: "wamid.RE", status: "failed", at, errors }), false);

    // Sent again (as the template) and failed with 131047 again: no second requeue.
    await db.query(
      "update public.wa_outbox set status = 'sent', wamid = 'wamid.RE2' where id = $1",
      [
        id,
      ],
    );
    assert.equal(await applyStatus(db, { wamid: "wamid.RE2", status: "failed", at, errors }), true);
    row = await read(db, id);
    assert.equal(row.status, "failed");

    // Without a fallback, 131047 is an ordinary failure.
    const plain = await sentMessage(db, "wamid.PLAIN");
    await applyStatus(db, { wamid: "wamid.PLAIN", status: "failed", at, errors });
    assert.equal((await read(db, plain)).status, "failed");
  },
);

dbTest("applyStatus() needs the connecting role: service_role cannot rank statuses", async (db) => {
  await sentMessage(db, "wamid.S");
  await assert.rejects(
    () =>
      db.asService((tx) =>
        applyStatus(tx, { wamid: "wamid.S", status: "delivered", at: new Date() })
      ),
    /permission denied/,
  );
});
