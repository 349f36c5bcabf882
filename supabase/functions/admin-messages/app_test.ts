import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { createAdminApp } from "./app.ts";
import { serveFunction } from "@testing/serve_function.ts";

async function serve(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const app = createAdminApp(rt);
  const server = serveFunction("admin-messages", (request) => app.fetch(request));
  const base = server.url;
  const as = async (userId: string | null) => {
    const token = userId ? await rt.tokenFor(userId) : null;
    return async (path: string, init: RequestInit & { key?: string } = {}) => {
      const response = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(init.key ? { "idempotency-key": init.key } : {}),
          ...(init.body ? { "content-type": "application/json" } : {}),
        },
      });
      return { status: response.status, body: await response.json() };
    };
  };
  return { rt, as, close: () => server.close() };
}

/** Aline wrote on WhatsApp (conversation + window) and asked for a person. */
async function raiseTicket(rt: TestRuntime, db: TestDatabase, windowHoursAgo = 1) {
  const [conversation] = await db.query<{ id: string }>(
    `insert into public.conversations (org_id, user_id, channel) values ($1, $2, 'whatsapp') returning id`,
    [ORG.easymo, USER.aline],
  );
  await db.query(
    `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body)
     values ($1, $2, $3, 'inbound', 'user', 'I want to talk to a person')`,
    [ORG.easymo, conversation.id, USER.aline],
  );
  await db.query(
    `insert into public.wa_contacts (wa_id, org_id, last_inbound_at)
     values ('250788000001', $1, now() - make_interval(hours => $2))`,
    [ORG.easymo, windowHoursAgo],
  );
  const result = await rt.callAs(USER.aline, "notify_staff", {
    channel: "inbox",
    payload: {
      convo_id: conversation.id,
      reason: "wants a person",
      summary: "Order problem",
      priority: "high",
    },
  }, { idempotencyKey: crypto.randomUUID() });
  assert.ok(result.ok, JSON.stringify(result));
  return { ticketId: result.data.ticket_id as string, conversationId: conversation.id };
}

dbTest("admin-messages lets staff of the org in, and no one else", async (db) => {
  const { rt, as, close } = await serve(db);
  try {
    const { ticketId } = await raiseTicket(rt, db);
    const jean = await as(USER.jean);
    const list = await jean("/tickets");
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.tickets.map((t: { id: string }) => t.id), [ticketId]);
    const [ticket] = list.body.data.tickets;
    assert.equal(ticket.requester.phone, "+250788000001");
    assert.equal(ticket.window_open, true);
    assert.deepEqual(list.body.data.queue, { open: 1, claimed: 0, resolved_today: 0 });
    assert.equal((await jean("/me")).body.data.orgs[0].slug, "easymo");

    assert.equal((await (await as(null))("/tickets")).status, 401);
    const customer = await (await as(USER.aline))("/tickets");
    assert.equal(customer.status, 403);
    assert.equal(customer.body.error.code, "AUTH_ERROR");

    // Another org's staff: an empty queue, and the ticket does not exist for them.
    const paul = await as(USER.paul);
    assert.deepEqual((await paul("/tickets?status=all")).body.data.tickets, []);
    assert.equal((await paul(`/tickets/${ticketId}`)).status, 404);
    assert.equal((await paul(`/tickets/${ticketId}/claim`, { method: "POST" })).status, 404);
    assert.equal(
      (await paul(`/tickets/${ticketId}/notes`, {
        method: "POST",
        body: JSON.stringify({ text: "sneaky" }),
      })).status,
      404,
    );
    assert.equal((await jean("/tickets/not-a-uuid")).status, 404);
  } finally {
    await close();
  }
});

dbTest(
  "admin-messages: claim hands the conversation to staff; resolve gives it back",
  async (db) => {
    const { rt, as, close } = await serve(db);
    try {
      const { ticketId, conversationId } = await raiseTicket(rt, db);
      const jean = await as(USER.jean);
      const grace = await as(USER.grace);
      const claimed = await jean(`/tickets/${ticketId}/claim`, { method: "POST" });
      assert.equal(claimed.body.data.ticket.status, "claimed");
      assert.equal(claimed.body.data.ticket.assigned_name, "Jean Habimana");
      const status = async () =>
        (await db.query<{ status: string }>(
          "select status from public.conversations where id = $1",
          [
            conversationId,
          ],
        ))[0].status;
      assert.equal(await status(), "handoff");
      const taken = await grace(`/tickets/${ticketId}/claim`, { method: "POST" });
      assert.equal(taken.status, 409);
      assert.match(taken.body.error.msg, /claimed by Jean Habimana/);
      await jean(`/tickets/${ticketId}/notes`, {
        method: "POST",
        body: JSON.stringify({ text: "Called the venue" }),
      });
      const thread = (await grace(`/tickets/${ticketId}`)).body.data;
      assert.deepEqual(
        thread.notes.map((n: { author_name: string; body: string }) => [n.author_name, n.body]),
        [
          ["Jean Habimana", "Called the venue"],
        ],
      );
      assert.equal(thread.messages[0].body, "I want to talk to a person");
      assert.equal(
        (await jean(`/tickets/${ticketId}/resolve`, { method: "POST" })).body.data.ticket.status,
        "resolved",
      );
      assert.equal(await status(), "open");
      assert.equal((await jean(`/tickets/${ticketId}/resolve`, { method: "POST" })).status, 409);
      assert.equal(
        (await grace(`/tickets/${ticketId}/reopen`, { method: "POST" })).body.data.ticket.status,
        "open",
      );
      const assigned = await grace(`/tickets/${ticketId}/assign`, {
        method: "POST",
        body: JSON.stringify({ staff_id: USER.jean }),
      });
      assert.equal(assigned.body.data.ticket.assigned_to, USER.jean);
      const notStaff = await grace(`/tickets/${ticketId}/assign`, {
        method: "POST",
        body: JSON.stringify({ staff_id: USER.aline }),
      });
      assert.equal(notStaff.status, 400);
    } finally {
      await close();
    }
  },
);

dbTest(
  "admin-messages replies on WhatsApp once per key, as a template outside the window",
  async (db) => {
    const { rt, as, close } = await serve(db);
    try {
      const { ticketId } = await raiseTicket(rt, db);
      const jean = await as(USER.jean);
      const reply = (key: string, text = "Muraho Aline, we are on it") =>
        jean(`/tickets/${ticketId}/reply`, { method: "POST", key, body: JSON.stringify({ text }) });
      assert.equal((await reply("k1")).status, 409);
      await jean(`/tickets/${ticketId}/claim`, { method: "POST" });
      assert.equal(
        (await jean(`/tickets/${ticketId}/reply`, {
          method: "POST",
          body: JSON.stringify({ text: "no key" }),
        })).status,
        400,
      );
      // A NUL byte (which no jsonb column holds) is the reply's field error; nothing is queued.
      const nul = await reply("k0", "Muraho\u0000 Aline");
      assert.equal(nul.status, 400, JSON.stringify(nul.body));
      assert.equal(nul.body.error.code, "VALIDATION_ERROR");
      assert.deepEqual(nul.body.error.fields.map((f: { path: string }) => f.path), ["text"]);
      const first = await reply("k1");
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.data.sent_as, "text");
      assert.deepEqual((await reply("k1")).body, first.body);
      const outbox = await db.query<{ to_wa_id: string; body: { text: { body: string } } }>(
        "select to_wa_id, body from public.wa_outbox",
      );
      assert.deepEqual(outbox.map((row) => [row.to_wa_id, row.body.text.body]), [
        ["250788000001", "Muraho Aline, we are on it"],
      ]);
      const thread = (await jean(`/tickets/${ticketId}`)).body.data;
      assert.deepEqual(thread.messages.at(-1).sender, "staff");
      // Two days of silence: the window is closed, a template goes instead.
      await db.query("update public.wa_contacts set last_inbound_at = now() - interval '2 days'");
      assert.equal((await reply("k2", "Still there?")).body.data.sent_as, "template");
    } finally {
      await close();
    }
  },
);

dbTest("admin-messages returns only what changed since the last poll", async (db) => {
  const { rt, as, close } = await serve(db);
  try {
    const { ticketId } = await raiseTicket(rt, db);
    const jean = await as(USER.jean);
    const first = (await jean("/tickets")).body.data;
    const since = encodeURIComponent(first.server_time);
    assert.deepEqual((await jean(`/tickets?updated_since=${since}`)).body.data.tickets, []);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await jean(`/tickets/${ticketId}/claim`, { method: "POST" });
    const changed = (await jean(`/tickets?updated_since=${since}`)).body.data.tickets;
    assert.deepEqual(changed.map((t: { id: string; status: string }) => [t.id, t.status]), [[
      ticketId,
      "claimed",
    ]]);
    const bogus = await jean("/tickets?status=bogus");
    assert.equal(bogus.status, 400);
    // The parameter at fault is named.
    assert.deepEqual(
      bogus.body.error.fields.map((field: { path: string }) => field.path),
      ["status"],
    );
  } finally {
    await close();
  }
});

dbTest("admin-messages answers CORS preflights for the page's origin only", async (db) => {
  const rt = await createTestRuntime(db);
  const app = createAdminApp({ ...rt, allowedOrigins: ["https://inbox.easymo.rw"] });
  const preflight = (origin: string) =>
    app.request("/admin-messages/tickets", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
  const allowed = await preflight("https://inbox.easymo.rw");
  assert.equal(allowed.headers.get("access-control-allow-origin"), "https://inbox.easymo.rw");
  const other = await preflight("https://evil.example");
  assert.equal(other.headers.get("access-control-allow-origin"), null);
});

dbTest("admin-messages refuses a body over 64 KiB with 413 in the contract's shape", async (db) => {
  const { rt, as, close } = await serve(db);
  try {
    const { ticketId } = await raiseTicket(rt, db);
    const jean = await as(USER.jean);
    const refused = await jean(`/tickets/${ticketId}/notes`, {
      method: "POST",
      body: JSON.stringify({ text: "x".repeat(70 * 1024) }),
    });
    assert.equal(refused.status, 413);
    assert.equal(refused.body.ok, false);
    assert.equal(refused.body.error.code, "VALIDATION_ERROR");
    assert.deepEqual(refused.body.error.fields.map((f: { path: string }) => f.path), ["body"]);
    const [notes] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.ticket_notes",
    );
    assert.equal(notes.n, 0);
    const fine = await jean(`/tickets/${ticketId}/notes`, {
      method: "POST",
      body: JSON.stringify({ text: "called back" }),
    });
    assert.equal(fine.status, 200);
  } finally {
    await close();
  }
});

dbTest("admin-messages names the agent the ticket's conversation is with", async (db) => {
  const { rt, as, close } = await serve(db);
  try {
    const { ticketId, conversationId } = await raiseTicket(rt, db);
    await db.query(`update public.conversations set agent_id = 'pharmacy' where id = $1`, [
      conversationId,
    ]);
    const jean = await as(USER.jean);
    const [listed] = (await jean("/tickets")).body.data.tickets;
    assert.equal(listed.agent_id, "pharmacy");
    assert.equal(listed.agent_name, "Pharmacy");
    const detail = await jean(`/tickets/${ticketId}`);
    assert.equal(detail.body.data.ticket.agent_name, "Pharmacy");
  } finally {
    await close();
  }
});

dbTest("admin-messages shows a turn's replies in the order they were sent", async (db) => {
  const { rt, as, close } = await serve(db);
  try {
    const { ticketId, conversationId } = await raiseTicket(rt, db);
    // One turn's replies are stored in one transaction, where now() is the same for every row.
    const replies = Array.from({ length: 8 }, (_, i) => `reply ${i + 1}`);
    await db.transaction(async (tx) => {
      for (const body of replies) {
        await tx.query(
          `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body)
           values ($1, $2, $3, 'outbound', 'agent', $4)`,
          [ORG.easymo, conversationId, USER.aline, body],
        );
      }
    });
    const thread = (await (await as(USER.jean))(`/tickets/${ticketId}`)).body.data;
    assert.deepEqual(
      thread.messages.map((m: { body: string }) => m.body),
      ["I want to talk to a person", ...replies],
    );
  } finally {
    await close();
  }
});
