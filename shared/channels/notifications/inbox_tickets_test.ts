import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { stageStaffTicket } from "./inbox_tickets.ts";

interface InboxRow {
  status: string;
  attempts: number;
  last_error: string | null;
  ticket_id: string | null;
}

function inboxRows(db: TestDatabase): Promise<InboxRow[]> {
  return db.query<InboxRow>(
    `select status, attempts, last_error, ticket_id from public.notification_outbox
      where channel = 'inbox' order by created_at`,
  );
}

// A real failure of the ticket's insert: Postgres cancelling it, as a statement timeout does.
async function failTicketInserts(db: TestDatabase): Promise<void> {
  await db.exec(`
    create function public.test_cancel_ticket() returns trigger language plpgsql as $$
    begin
      raise exception 'canceling statement due to statement timeout' using errcode = '57014';
    end $$;
    create trigger test_cancel_ticket before insert on public.staff_tickets
      for each row execute function public.test_cancel_ticket();`);
}

async function healTicketInserts(db: TestDatabase): Promise<void> {
  await db.exec(`
    drop trigger test_cancel_ticket on public.staff_tickets;
    drop function public.test_cancel_ticket();`);
}

const TICKET = {
  key: "test:stuck-message",
  reason: "WhatsApp message could not be processed",
  summary: "Message wamid.X failed 5 times",
};

dbTest(
  "stageStaffTicket() stages one row per key, none while a ticket of the reason is open",
  async (db) => {
    assert.equal(await stageStaffTicket(db, { orgId: ORG.easymo, ticket: TICKET }), true);
    assert.equal(await stageStaffTicket(db, { orgId: ORG.easymo, ticket: TICKET }), false);
    const incident = { ...TICKET, reason: "WhatsApp media lookups refused our access token" };
    const staged = (key: string) =>
      stageStaffTicket(db, { orgId: ORG.easymo, unlessOpen: true, ticket: { ...incident, key } });
    // A ticket of the reason is open: the same incident.
    await db.query(
      `insert into public.staff_tickets (org_id, channel, reason, summary)
       values ($1, 'inbox', $2, 'earlier')`,
      [ORG.easymo, incident.reason],
    );
    assert.equal(await staged("incident:1"), false);
    await db.query("update public.staff_tickets set status = 'resolved'");
    assert.equal(await staged("incident:1"), true);
    // One is waiting to be opened: the same incident.
    assert.equal(await staged("incident:2"), false);
    const [row] = await db.query<{ body: string; ticket_request: Record<string, unknown> }>(
      "select body, ticket_request from public.notification_outbox where ticket_request->>'key' = 'incident:1'",
    );
    assert.equal(
      row.body,
      "[high] WhatsApp media lookups refused our access token: Message wamid.X failed 5 times",
    );
    assert.equal(row.ticket_request.priority, "high");
    await assert.rejects(
      stageStaffTicket(db, { orgId: ORG.easymo, ticket: { ...TICKET, key: "" } }),
      TypeError,
    );
  },
);

dbTest("a customer cannot stage a ticket request the platform would open", async (db) => {
  await assert.rejects(
    db.asCaller({ sub: USER.aline, role: "authenticated" }, (tx) =>
      tx.query(
        `insert into public.notification_outbox
           (org_id, channel, target, body, ticket_request, created_by)
         values ($1, 'inbox', 'inbox', 'x', $2, $3)`,
        [ORG.easymo, { ...TICKET, key: "wa-inbound-failed:wamid.guess" }, USER.aline],
      )),
    /row-level security/,
  );
});

dbTest(
  "a staged ticket whose notify_staff call fails is retried by the dispatcher and opened once",
  async (db) => {
    const rt = await createTestRuntime(db);
    await failTicketInserts(db);
    await stageStaffTicket(db, { orgId: ORG.easymo, ticket: TICKET });
    await rt.platform.notifications.drain();
    let [row] = await inboxRows(db);
    assert.equal(row.status, "recorded");
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, "notify_staff failed: TIMEOUT");
    assert.equal(row.ticket_id, null);
    assert.equal((await db.query("select 1 from public.staff_tickets")).length, 0);
    assert.ok(
      rt.log.lines.some((line) => line.event === "notification_retry" && line.channel === "inbox"),
    );

    await healTicketInserts(db);
    // The backoff is waited out by moving the due time, not by sleeping.
    await db.query("update public.notification_outbox set next_attempt_at = now()");
    await rt.platform.notifications.drain();
    [row] = await inboxRows(db);
    assert.equal(row.status, "sent");
    assert.equal(row.attempts, 2);
    const tickets = await db.query<
      { id: string; reason: string; summary: string; priority: string }
    >("select id, reason, summary, priority from public.staff_tickets");
    assert.deepEqual(tickets, [{
      id: row.ticket_id,
      reason: TICKET.reason,
      summary: TICKET.summary,
      priority: "high",
    }]);
    // Draining again, or staging the key again once sent, opens nothing more.
    await rt.platform.notifications.drain();
    assert.equal(await stageStaffTicket(db, { orgId: ORG.easymo, ticket: TICKET }), true);
    await rt.platform.notifications.drain();
    assert.deepEqual((await inboxRows(db)).map((inbox) => [inbox.status, inbox.ticket_id]), [
      ["sent", row.ticket_id],
      ["sent", row.ticket_id],
    ]);
    assert.equal((await db.query("select 1 from public.staff_tickets")).length, 1);
    await rt.platform.close();
  },
);
