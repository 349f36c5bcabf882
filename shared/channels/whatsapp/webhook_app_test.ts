import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import {
  messageDelivery,
  type SenderOptions,
  type SimulatedContent,
  statusDelivery,
} from "./payloads.ts";
import { signBody } from "./signature.ts";
import { startFakeGraph } from "@testing/graph_server.ts";
import { sendChunked } from "@testing/raw_http.ts";
import { createWhatsAppChannel, type WhatsAppChannelConfig } from "./channel.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { buySellConcierge } from "@testing/whatsapp_webhook.ts";

const APP_SECRET = "meta-app-secret-for-tests";
const VERIFY_TOKEN = "verify-me";
const BUYER = "250788000001";
const USER_ALINE = "00000000-0000-4000-8000-000000000001";

/** A webhook on a real HTTP server over `db`, with processing the test can wait for. */
async function webhook(db: TestDatabase, config: Partial<WhatsAppChannelConfig> = {}) {
  const rt = await createTestRuntime(db);
  const pending: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
    background: (task) => void pending.push(task()),
    // These tests are about the channel and the concierge flow itself (the agent has its own).
    conversation: buySellConcierge,
    ...config,
  });
  const server = serveFunction("wa-webhook", (request) => channel.app.fetch(request));
  const url = server.url;
  async function post(payload: unknown, headers: Record<string, string> | null = null) {
    const body = new TextEncoder().encode(
      typeof payload === "string" ? payload : JSON.stringify(payload),
    );
    const response = await fetch(url, {
      method: "POST",
      headers: headers ?? { "x-hub-signature-256": await signBody(APP_SECRET, body) },
      body,
    });
    await response.body?.cancel();
    return response.status;
  }
  /** Sends a message and waits until it was processed and its replies dispatched. */
  async function say(sender: SenderOptions, content: SimulatedContent) {
    const status = await post(messageDelivery(sender, content));
    assert.equal(status, 200);
    await settle();
  }
  async function settle() {
    while (pending.length) await pending.shift();
    await channel.dispatcher.drain();
  }
  return {
    rt,
    channel,
    url,
    port: server.port,
    post,
    say,
    settle,
    async close() {
      await settle();
      await server.close();
    },
  };
}

async function count(db: TestDatabase, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (${sql}) q`, params);
  return row.n;
}

async function outboxTo(db: TestDatabase, waId: string) {
  return await db.query<
    { kind: string; body: Record<string, unknown>; wamid: string; status: string }
  >(
    "select kind, body, wamid, status from public.wa_outbox where to_wa_id = $1 order by seq",
    [waId],
  );
}

function textOf(body: Record<string, unknown>): string {
  const text = body.text as { body: string } | undefined;
  const interactive = body.interactive as { body: { text: string } } | undefined;
  return text?.body ?? interactive?.body.text ?? "";
}

dbTest("webhook answers Meta's verification challenge only with the right token", async (db) => {
  const hook = await webhook(db);
  try {
    const ok = await fetch(
      `${hook.url}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "1158201444");
    for (
      const query of [
        `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
        `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
        `hub.mode=subscribe&hub.challenge=1`,
      ]
    ) {
      const refused = await fetch(`${hook.url}?${query}`);
      assert.equal(refused.status, 403, query);
      await refused.body?.cancel();
    }
  } finally {
    await hook.close();
  }
});

dbTest("webhook refuses unsigned or wrongly signed deliveries and stores nothing", async (db) => {
  const hook = await webhook(db);
  try {
    const payload = messageDelivery({ from: BUYER }, { text: "hello" });
    const body = JSON.stringify(payload);
    const bytes = new TextEncoder().encode(body);
    assert.equal(await hook.post(payload, {}), 401);
    assert.equal(
      await hook.post(payload, { "x-hub-signature-256": "sha256=" + "0".repeat(64) }),
      403,
    );
    assert.equal(
      await hook.post(payload, { "x-hub-signature-256": await signBody("other", bytes) }),
      403,
    );
    // Signed, then altered in transit.
    const signature = await signBody(APP_SECRET, bytes);
    assert.equal(
      await hook.post(body.replace("hello", "HELLO"), { "x-hub-signature-256": signature }),
      403,
    );
    assert.equal(await hook.post(payload, { "x-hub-signature-256": "bypass" }), 403);
    // Signed but not JSON, or not a WhatsApp envelope: 400, nothing stored.
    assert.equal(await hook.post("{oops"), 400);
    assert.equal(await hook.post({ object: "instagram", entry: [] }), 400);
    assert.equal(await count(db, "select 1 from private.wa_inbound"), 0);
    assert.equal(await count(db, "select 1 from public.wa_contacts"), 0);
  } finally {
    await hook.close();
  }
});

dbTest("webhook stores a delivery once however often Meta delivers it", async (db) => {
  const hook = await webhook(db);
  try {
    const payload = messageDelivery({ from: BUYER, name: "Aline", wamid: "wamid.DUP" }, {
      text: "hi",
    });
    const statuses = await Promise.all(Array.from({ length: 8 }, () => hook.post(payload)));
    assert.deepEqual(new Set(statuses), new Set([200]));
    await hook.settle();
    assert.equal(await hook.post(payload), 200);
    await hook.settle();
    assert.equal(await count(db, "select 1 from private.wa_inbound"), 1);
    assert.equal(await count(db, "select 1 from public.messages where wamid = 'wamid.DUP'"), 1);
    // One welcome reply, not nine.
    assert.equal((await outboxTo(db, BUYER)).length, 1);
    const [contact] = await db.query<{ profile_name: string }>(
      "select profile_name from public.wa_contacts",
    );
    assert.equal(contact.profile_name, "Aline");
  } finally {
    await hook.close();
  }
});

dbTest("webhook processes what a crash left behind, exactly once", async (db) => {
  // First process "crashes" after storing: its background work never runs.
  const crashed = await webhook(db, { background: () => {} });
  try {
    await crashed.post(messageDelivery({ from: BUYER, wamid: "wamid.CRASH" }, { text: "hello" }));
    const [row] = await db.query<{ status: string }>("select status from private.wa_inbound");
    assert.equal(row.status, "pending");
    assert.equal((await outboxTo(db, BUYER)).length, 0);
  } finally {
    await crashed.close();
  }
  const restarted = await webhook(db);
  try {
    assert.equal(await restarted.channel.processor.sweep(), 1);
    assert.equal(await restarted.channel.processor.sweep(), 0);
    await restarted.settle();
    const [row] = await db.query<{ status: string }>("select status from private.wa_inbound");
    assert.equal(row.status, "done");
    assert.equal((await outboxTo(db, BUYER)).length, 1);
  } finally {
    await restarted.close();
  }
});

dbTest("webhook moves outbound statuses forward only, whatever their order", async (db) => {
  const hook = await webhook(db);
  try {
    await hook.say({ from: BUYER }, { text: "hi" });
    const [sent] = await outboxTo(db, BUYER);
    assert.equal(sent.status, "sent");
    const deliver = (
      status: "delivered" | "read" | "failed",
      errors?: Array<{ code: number; title: string }>,
    ) => hook.post(statusDelivery({ wamid: sent.wamid, status, recipient: BUYER, errors }));
    assert.equal(await deliver("read"), 200);
    assert.equal(await deliver("delivered"), 200);
    assert.equal(await deliver("failed", [{ code: 131026, title: "Message undeliverable" }]), 200);
    const [after] = await outboxTo(db, BUYER);
    assert.equal(after.status, "read");
    // A status for a message we never sent is accepted and ignored.
    assert.equal(
      await hook.post(statusDelivery({ wamid: "wamid.UNKNOWN", status: "read", recipient: BUYER })),
      200,
    );
  } finally {
    await hook.close();
  }
});

dbTest("webhook handles every message type", async (db) => {
  const hook = await webhook(db);
  try {
    const cases: Array<[SimulatedContent, string, RegExp]> = [
      [{ text: "hello" }, "text", /Tell me what you are looking for/],
      [{ location: { latitude: -1.9536, longitude: 30.0925 } }, "location", /Got your location/],
      [
        { media: { type: "image", id: "M1", mimeType: "image/jpeg" } },
        "media",
        /can't read pictures/,
      ],
      [
        { media: { type: "document", id: "M2", mimeType: "application/pdf" } },
        "media",
        /can't read/,
      ],
      [{ buttonReply: { id: "concierge_cancel", title: "Cancel" } }, "button_reply", /cancelled/],
      [
        { listReply: { id: "row_1", title: "menu" } },
        "list_reply",
        /Tell me what you are looking for/,
      ],
      [
        { quickReply: { payload: "help", text: "Help" } },
        "quick_reply",
        /Tell me what you are looking for/,
      ],
    ];
    for (const [index, [content, type, reply]] of cases.entries()) {
      await hook.say({ from: BUYER, wamid: `wamid.T${index}` }, content);
      const [stored] = await db.query<{ type: string; status: string }>(
        "select type, status from private.wa_inbound where wamid = $1",
        [`wamid.T${index}`],
      );
      assert.deepEqual(stored, { type, status: "done" });
      const outbox = await outboxTo(db, BUYER);
      assert.match(textOf(outbox.at(-1)!.body), reply, type);
    }
  } finally {
    await hook.close();
  }
});

dbTest("buy & sell end to end: ask, consent, vendors answer, ranked updates", async (db) => {
  const hook = await webhook(db);
  try {
    await hook.say({ from: BUYER }, { location: { latitude: -1.9536, longitude: 30.0925 } });
    // Aline's profile says Kinyarwanda; writing in English switches the flow to English.
    await hook.say({ from: BUYER }, { text: "Hello, I need paracetamol" });
    const offer = (await outboxTo(db, BUYER)).at(-1)!;
    assert.equal(offer.kind, "buttons");
    assert.match(textOf(offer.body), /Pharmacie Conseil Kimihurura \(0\.0 km\)/);
    assert.match(textOf(offer.body), /Pharmacie Kacyiru/);

    await hook.say({ from: BUYER, contextWamid: offer.wamid }, {
      buttonReply: { id: "concierge_ask", title: "Ask them" },
    });
    assert.match(textOf((await outboxTo(db, BUYER)).at(-1)!.body), /I asked 2 vendor/);
    const [kimihurura] = await outboxTo(db, "250788000004");
    const [kacyiru] = await outboxTo(db, "250788000009");
    assert.equal(kimihurura.status, "sent");
    assert.match(textOf(kacyiru.body), /paracetamol/);

    // Vendors answer: one by replying to our message, one by typing.
    await hook.say({ from: "250788000009", contextWamid: kacyiru.wamid }, { text: "YES 1500 2" });
    await hook.say({ from: "250788000004" }, { text: "oya" });
    assert.match(
      textOf((await outboxTo(db, BUYER)).at(-1)!.body),
      /Pharmacie Kacyiru .*has it: 1,500 RWF × 2/,
    );

    await hook.say({ from: BUYER }, { text: "updates" });
    const updates = textOf((await outboxTo(db, BUYER)).at(-1)!.body);
    assert.match(updates, /Answers: 2 of 2 \(complete\)/);
    assert.match(updates, /✅ Pharmacie Kacyiru — 1,500 RWF × 2 · \d\.\d km/);
    assert.match(updates, /❌ Pharmacie Conseil Kimihurura/);
    // The buyer's words are in the transcript; vendors' answers are not buyer messages.
    assert.equal(await count(db, "select 1 from public.messages where direction = 'inbound'"), 4);
  } finally {
    await hook.close();
  }
});

dbTest("a vendor with two open inquiries is matched by reply context first", async (db) => {
  const hook = await webhook(db);
  try {
    for (const item of ["paracetamol", "vitamin c"]) {
      await hook.say({ from: BUYER }, { location: { latitude: -1.9536, longitude: 30.0925 } });
      await hook.say({ from: BUYER }, { text: item });
      await hook.say({ from: BUYER }, { buttonReply: { id: "concierge_ask", title: "Ask them" } });
    }
    const [first, second] = await outboxTo(db, "250788000004");
    assert.match(textOf(first.body), /paracetamol/);
    assert.match(textOf(second.body), /vitamin c/);
    await hook.say({ from: "250788000004", contextWamid: first.wamid }, { text: "yes 500" });
    const answered = await db.query<{ item: string; price: number }>(
      `select i.request_summary as item, m.price::int as price
       from public.market_vendor_inquiry_messages m
       join public.market_vendor_inquiries i on i.id = m.inquiry_id
       where m.vendor_wa_id = '250788000004' and m.reply_status = 'yes'`,
    );
    assert.deepEqual(answered, [{ item: "paracetamol", price: 500 }]);
    // Without context, the most recent open inquiry.
    await hook.say({ from: "250788000004" }, { buttonReply: { id: "vendor_no", title: "No" } });
    const [latest] = await db.query<{ reply_status: string }>(
      `select m.reply_status from public.market_vendor_inquiry_messages m
       join public.market_vendor_inquiries i on i.id = m.inquiry_id
       where m.vendor_wa_id = '250788000004' and i.request_summary = 'vitamin c'`,
    );
    assert.equal(latest.reply_status, "no");
  } finally {
    await hook.close();
  }
});

dbTest("replies go out through the Graph API when it is configured", async (db) => {
  await using graph = await startFakeGraph();
  const hook = await webhook(db, {
    graph: { token: graph.token, phoneNumberId: graph.phoneNumberId, baseUrl: graph.baseUrl },
  });
  try {
    await hook.say({ from: BUYER }, { text: "hi" });
    assert.equal(graph.accepted.length, 1);
    assert.equal(graph.accepted[0].to, BUYER);
    const [row] = await outboxTo(db, BUYER);
    assert.equal(row.wamid, graph.accepted[0].wamid);
    assert.equal(row.status, "sent");
  } finally {
    await hook.close();
  }
});

dbTest("the sweep endpoint needs a service token and processes what was left", async (db) => {
  const crashed = await webhook(db, { background: () => {} });
  await crashed.post(messageDelivery({ from: BUYER, wamid: "wamid.LEFT" }, { text: "hi" }));
  await crashed.close();
  const hook = await webhook(db);
  try {
    const sweep = (token: string) =>
      fetch(`${hook.url}/sweep`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    const user = await sweep(await hook.rt.tokenFor(USER_ALINE));
    assert.equal(user.status, 401);
    await user.body?.cancel();
    const service = await sweep(await hook.rt.tokenFor(null));
    const swept = await service.json();
    assert.equal(swept.ok, true);
    assert.equal(swept.data.processed, 1);
    assert.equal((await outboxTo(db, BUYER))[0].status, "sent");
  } finally {
    await hook.close();
  }
});

dbTest("Meta refusing a message for spam limits raises a staff ticket once", async (db) => {
  const hook = await webhook(db);
  try {
    await hook.say({ from: BUYER }, { text: "hi" });
    const [sent] = await outboxTo(db, BUYER);
    const failed = statusDelivery({
      wamid: sent.wamid,
      status: "failed",
      recipient: BUYER,
      errors: [{
        code: 131049,
        title: "This message was not delivered to maintain healthy ecosystem engagement.",
      }],
    });
    assert.equal(await hook.post(failed), 200);
    assert.equal(await hook.post(failed), 200);
    const tickets = await db.query<{ reason: string; priority: string }>(
      "select reason, priority from public.staff_tickets",
    );
    assert.deepEqual(tickets, [{
      reason: "WhatsApp refused a message (131049)",
      priority: "high",
    }]);
  } finally {
    await hook.close();
  }
});

dbTest("one sender's messages are handled in the order they were written", async (db) => {
  const tasks: Array<() => Promise<unknown>> = [];
  const hook = await webhook(db, { background: (task) => void tasks.push(task) });
  try {
    await hook.post(messageDelivery({ from: BUYER, timestamp: 1 }, {
      text: "hello, i need paracetamol",
    }));
    await tasks.shift()!();
    // Two deliveries whose processing starts in the opposite order of writing.
    await hook.post(messageDelivery({ from: BUYER, wamid: "wamid.O1", timestamp: 2 }, {
      buttonReply: { id: "concierge_ask", title: "Ask them" },
    }));
    await hook.post(messageDelivery({ from: BUYER, wamid: "wamid.O2", timestamp: 3 }, {
      text: "updates",
    }));
    await Promise.all(tasks.splice(0).reverse().map((task) => task()));
    await hook.settle();
    const texts = (await outboxTo(db, BUYER)).map((row) => textOf(row.body));
    assert.match(texts.at(-2)!, /I asked 2 vendor/);
    assert.match(texts.at(-1)!, /Answers: 0 of 2/);
  } finally {
    await hook.close();
  }
});

dbTest(
  "while staff own the conversation the concierge does not answer, the person hears they wait, and it speaks again after",
  async (db) => {
    const hook = await webhook(db);
    try {
      await hook.say({ from: BUYER }, { text: "hi" });
      assert.equal((await outboxTo(db, BUYER)).length, 1);
      await db.query("update public.conversations set status = 'handoff'");
      await hook.say({ from: BUYER }, { text: "is anyone there?" });
      // Not silence, and not the concierge: where they stand in the queue (no ticket here, so
      // first in line), in the buyer's profile language.
      const waiting = await outboxTo(db, BUYER);
      assert.equal(waiting.length, 2);
      assert.match(textOf(waiting[1].body), /Uri uwa 1 ku murongo/);
      // The user's words still reach the transcript staff read.
      assert.equal(
        await count(db, "select 1 from public.messages where body = 'is anyone there?'"),
        1,
      );
      await db.query("update public.conversations set status = 'open'");
      await hook.say({ from: BUYER }, { text: "hi again" });
      assert.equal((await outboxTo(db, BUYER)).length, 3);
    } finally {
      await hook.close();
    }
  },
);

dbTest("asking for a person raises a ticket and hands the conversation to staff", async (db) => {
  const hook = await webhook(db);
  try {
    await hook.say({ from: BUYER }, { text: "Please, I want to talk to a person about my order" });
    const [ticket] = await db.query<{ reason: string; summary: string; convo_id: string }>(
      "select reason, summary, convo_id from public.staff_tickets",
    );
    assert.equal(ticket.reason, "asked for a person");
    assert.match(ticket.summary, /talk to a person/);
    const [conversation] = await db.query<{ id: string; status: string }>(
      "select id, status from public.conversations",
    );
    assert.deepEqual(conversation, { id: ticket.convo_id, status: "handoff" });
    assert.match(textOf((await outboxTo(db, BUYER)).at(-1)!.body), /asked a person from our team/);
    // Until staff release it the concierge says nothing more; the person hears their place.
    await hook.say({ from: BUYER }, { text: "hello?" });
    const sent = await outboxTo(db, BUYER);
    assert.equal(sent.length, 2);
    assert.match(textOf(sent[1].body), /number 1 in the queue/);
    // Once staff hold the ticket, what the person writes is for staff alone.
    await db.query("update public.staff_tickets set status = 'claimed'");
    await hook.say({ from: BUYER }, { text: "my order is A-1001" });
    assert.equal((await outboxTo(db, BUYER)).length, 2);
  } finally {
    await hook.close();
  }
});

/** One delivery carrying several messages, as Meta batches them. */
function batchDelivery(items: Array<[SenderOptions, SimulatedContent]>) {
  const deliveries = items.map(([sender, content]) => messageDelivery(sender, content));
  // deno-lint-ignore no-explicit-any
  const [first] = deliveries as any[];
  const value = first.entry[0].changes[0].value;
  // deno-lint-ignore no-explicit-any
  for (const other of deliveries.slice(1) as any[]) {
    value.messages.push(...other.entry[0].changes[0].value.messages);
    value.contacts.push(...other.entry[0].changes[0].value.contacts);
  }
  return first;
}

dbTest(
  "a poisoned message beside a good one: 200, the good one answered, the poisoned stored repaired and flagged",
  async (db) => {
    const hook = await webhook(db);
    try {
      const delivery = batchDelivery([
        [{ from: "250788000051", wamid: "wamid.NUL" }, { text: "hi\u0000there" }],
        [{ from: "250788000052", wamid: "wamid.SURROGATE" }, { text: "hi \ud800" }],
        [{ from: "250788000053", wamid: "wamid.FUTURE", timestamp: 99999999999999 }, {
          text: "hi",
        }],
        [{ from: BUYER, wamid: "wamid.GOOD" }, { text: "hello, i need paracetamol" }],
      ]);
      const before = Date.now();
      assert.equal(await hook.post(delivery), 200);
      await hook.settle();
      // The good message is answered as if it had come alone.
      const [reply] = await outboxTo(db, BUYER);
      assert.match(textOf(reply.body), /paracetamol|pharmac/i);
      const rows = await db.query<{
        wamid: string;
        status: string;
        flags: string[];
        text: string;
        raw_payload: string | null;
        sent_at: Date;
      }>(
        `select wamid, status, flags, message->'text'->>'body' as text, raw_payload, sent_at
       from private.wa_inbound order by wamid`,
      );
      const byWamid = Object.fromEntries(rows.map((row) => [row.wamid, row]));
      assert.deepEqual(Object.keys(byWamid).sort(), [
        "wamid.FUTURE",
        "wamid.GOOD",
        "wamid.NUL",
        "wamid.SURROGATE",
      ]);
      for (const row of rows) assert.equal(row.status, "done", row.wamid);
      assert.equal(byWamid["wamid.NUL"].text, "hi\ufffdthere");
      assert.deepEqual(byWamid["wamid.NUL"].flags, ["text_sanitised"]);
      // What Meta sent is kept, escaped.
      assert.equal(JSON.parse(byWamid["wamid.NUL"].raw_payload!).text.body, "hi\u0000there");
      assert.equal(byWamid["wamid.SURROGATE"].text, "hi \ufffd");
      assert.match(byWamid["wamid.SURROGATE"].raw_payload!, /\\ud800/);
      assert.deepEqual(byWamid["wamid.FUTURE"].flags, ["timestamp_replaced"]);
      const futureAt = new Date(byWamid["wamid.FUTURE"].sent_at).getTime();
      assert.ok(futureAt >= before - 1000 && futureAt <= Date.now(), "receive time used");
      assert.deepEqual(byWamid["wamid.GOOD"].flags, []);
      assert.equal(byWamid["wamid.GOOD"].raw_payload, null);
      // Each sender got an answer, the poisoned ones too.
      for (const waId of ["250788000051", "250788000052", "250788000053"]) {
        assert.equal((await outboxTo(db, waId)).length > 0, true, waId);
      }
      // Meta re-sending the same delivery changes nothing.
      assert.equal(await hook.post(delivery), 200);
      await hook.settle();
      assert.equal(await count(db, "select 1 from private.wa_inbound"), 4);
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "a message whose processing fails is retried with growing backoff, then failed with one staff ticket",
  async (db) => {
    let calls = 0;
    const hook = await webhook(db, {
      retries: { maxAttempts: 3, backoff: { baseMs: 60_000, maxMs: 600_000, random: () => 0.5 } },
      conversation: (turn) => {
        if (turn.message.wamid === "wamid.BOOM") {
          calls++;
          return Promise.reject(new Error("handler exploded"));
        }
        return buySellConcierge(turn);
      },
    });
    const state = async () => {
      const [row] = await db.query<
        { status: string; attempts: number; wait_s: number; last_error: string }
      >(
        `select status, attempts, last_error,
              extract(epoch from next_attempt_at - now())::float8 as wait_s
       from private.wa_inbound where wamid = 'wamid.BOOM'`,
      );
      return row;
    };
    // The backoff is waited out by moving the due time, not by sleeping.
    const makeDue = () =>
      db.query("update private.wa_inbound set next_attempt_at = now() where wamid = 'wamid.BOOM'");
    try {
      await hook.say({ from: "250788000061", wamid: "wamid.BOOM" }, { text: "hi" });
      let row = await state();
      assert.equal(row.status, "pending");
      assert.equal(row.attempts, 1);
      // 60 s × 2^0 with equal jitter at 0.5: 45 s.
      assert.ok(row.wait_s > 40 && row.wait_s <= 45, `waits ${row.wait_s}s`);
      // Not due yet: the sweep leaves it, and the same sender's next message is not held up.
      assert.equal(await hook.channel.processor.sweep(), 0);
      await hook.say({ from: "250788000061", wamid: "wamid.AFTER" }, { text: "hello" });
      assert.equal(
        await count(
          db,
          "select 1 from private.wa_inbound where wamid = 'wamid.AFTER' and status = 'done'",
        ),
        1,
      );
      await makeDue();
      assert.equal(await hook.channel.processor.sweep(), 1);
      row = await state();
      assert.equal(row.attempts, 2);
      assert.ok(row.wait_s > 85 && row.wait_s <= 90, `waits ${row.wait_s}s, twice as long`);
      await makeDue();
      assert.equal(await hook.channel.processor.sweep(), 1);
      row = await state();
      assert.equal(row.status, "failed");
      assert.match(row.last_error, /handler exploded/);
      assert.equal(calls, 3);
      const tickets = await db.query<{ reason: string; summary: string; channel: string }>(
        "select reason, summary, channel from public.staff_tickets",
      );
      assert.equal(tickets.length, 1);
      assert.equal(tickets[0].reason, "WhatsApp message could not be processed");
      assert.equal(tickets[0].channel, "inbox");
      assert.match(tickets[0].summary, /wamid\.BOOM.*handler exploded/);
      // Never again, however often the sweep runs or Meta re-delivers.
      await makeDue();
      assert.equal(await hook.channel.processor.sweep(), 0);
      await hook.say({ from: "250788000061", wamid: "wamid.BOOM" }, { text: "hi" });
      assert.equal(calls, 3);
      assert.equal(await count(db, "select 1 from public.staff_tickets"), 1);
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "a rate-limited turn asks the user, in their language, to try again shortly and keeps the message",
  async (db) => {
    await db.query(
      `update public.orgs set tool_policy = jsonb_set(coalesce(tool_policy, '{}'), '{rate_limits}',
       '{"search_businesses_with_tags": {"limit": 1, "window_sec": 86400}}')
     where slug = 'easymo'`,
    );
    const hook = await webhook(db, { rateLimitRetryMs: 120_000 });
    const FRENCH = "250788000071";
    try {
      await hook.say({ from: BUYER }, { text: "hello, i need paracetamol" });
      await hook.say({ from: FRENCH, wamid: "wamid.LIMITED" }, {
        text: "bonjour, je cherche du paracetamol",
      });
      const busy = await outboxTo(db, FRENCH);
      assert.equal(busy.length, 1);
      assert.match(textOf(busy[0].body), /réessayer dans un instant/);
      assert.doesNotMatch(textOf(busy[0].body), /went wrong|problème/i);
      const [kept] = await db.query<
        { status: string; attempts: number; deferrals: number; wait_s: number }
      >(
        `select status, attempts, deferrals,
              extract(epoch from next_attempt_at - now())::float8 as wait_s
       from private.wa_inbound where wamid = 'wamid.LIMITED'`,
      );
      assert.equal(kept.status, "pending");
      assert.equal(kept.attempts, 0);
      assert.equal(kept.deferrals, 1);
      assert.ok(kept.wait_s > 100 && kept.wait_s <= 120, `waits ${kept.wait_s}s`);
      // Not answered yet: no turn was committed for it.
      assert.equal(
        await count(db, "select 1 from public.messages where wamid = 'wamid.LIMITED'"),
        0,
      );
      // Still limited on the next attempt: put off again, the user is not told twice.
      await db.query(
        "update private.wa_inbound set next_attempt_at = now() where wamid = 'wamid.LIMITED'",
      );
      assert.equal(await hook.channel.processor.sweep(), 1);
      await hook.settle();
      assert.equal((await outboxTo(db, FRENCH)).length, 1);
      // The limit lifts: the kept message is answered normally.
      await db.query(
        `update public.orgs set tool_policy = jsonb_set(tool_policy, '{rate_limits}',
         '{"search_businesses_with_tags": {"limit": 1000000, "window_sec": 1}}')
       where slug = 'easymo'`,
      );
      await hook.rt.platform.tenants.load(db);
      await db.query(
        "update private.wa_inbound set next_attempt_at = now() where wamid = 'wamid.LIMITED'",
      );
      assert.equal(await hook.channel.processor.sweep(), 1);
      await hook.settle();
      const [done] = await db.query<{ status: string }>(
        "select status from private.wa_inbound where wamid = 'wamid.LIMITED'",
      );
      assert.equal(done.status, "done");
      const replies = await outboxTo(db, FRENCH);
      assert.equal(replies.length, 2);
      assert.doesNotMatch(textOf(replies[1].body), /réessayer dans un instant/);
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "webhook refuses a 600 MB chunked body with 413 without reading it, and a slow one with 408",
  async (db) => {
    const hook = await webhook(db, { body: { timeoutMs: 300 } });
    try {
      const path = "/functions/v1/wa-webhook";
      // Unsigned on purpose: size is checked before the signature.
      const huge = await sendChunked({ path, port: hook.port, totalBytes: 600 * 1024 * 1024 });
      assert.equal(huge.status, 413);
      assert.equal(huge.sentAll, false);
      assert.ok(huge.sentBytes < 64 * 1024 * 1024, `sent ${huge.sentBytes} bytes`);
      const slow = await sendChunked({
        path,
        port: hook.port,
        totalBytes: 4096,
        chunkBytes: 16,
        pauseMs: 50,
      });
      assert.equal(slow.status, 408);
      assert.equal(await count(db, "select 1 from private.wa_inbound"), 0);
    } finally {
      await hook.close();
    }
  },
);
