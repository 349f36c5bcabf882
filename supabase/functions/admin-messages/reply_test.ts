import assert from "node:assert/strict";
import { ToolFailure } from "@shared/contract/mod.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import type { JwtClaims } from "@shared/db/types.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { replyToUser } from "./reply.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

/** Aline's WhatsApp conversation, handed to staff by Jean (not by Aline), claimed by Jean. */
async function ticketRaisedByStaff(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const [conversation] = await db.query<{ id: string }>(
    "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
    [ORG.easymo, USER.aline],
  );
  await db.query(
    "insert into public.wa_contacts (wa_id, org_id, last_inbound_at) values ('250788000001', $1, now())",
    [ORG.easymo],
  );
  const raised = await rt.callAs(USER.jean, "notify_staff", {
    channel: "inbox",
    payload: { convo_id: conversation.id, reason: "stuck order", summary: "Seen in the inbox" },
  }, { idempotencyKey: "staff-raised" });
  assert.ok(raised.ok, JSON.stringify(raised));
  await db.query(
    "update public.staff_tickets set status = 'claimed', assigned_to = $2 where id = $1",
    [raised.data.ticket_id, USER.jean],
  );
  return { ticketId: raised.data.ticket_id as string, conversationId: conversation.id };
}

dbTest(
  "a staff reply reaches the conversation's customer, not the ticket's requester",
  async (db) => {
    const { ticketId, conversationId } = await ticketRaisedByStaff(db);
    const result = await replyToUser(db, {
      claims: as(USER.jean),
      orgId: ORG.easymo,
      ticketId,
      text: "Muraho Aline, your order is on its way",
      idempotencyKey: "r1",
    });
    assert.equal(result.sent_as, "text");
    const [outbox] = await db.query("select to_wa_id, conversation_id from public.wa_outbox");
    assert.deepEqual(outbox, { to_wa_id: "250788000001", conversation_id: conversationId });
    const [message] = await db.query(
      "select conversation_id, user_id, sender from public.messages where id = $1",
      [result.message_id],
    );
    assert.deepEqual(message, {
      conversation_id: conversationId,
      user_id: USER.aline,
      sender: "staff",
    });
  },
);

dbTest("another org's staff cannot reply on a ticket, and nothing is written", async (db) => {
  const { ticketId } = await ticketRaisedByStaff(db);
  for (const orgId of [ORG.easymo, ORG.beaver]) {
    await assert.rejects(
      replyToUser(db, {
        claims: as(USER.paul),
        orgId,
        ticketId,
        text: "hello",
        idempotencyKey: `paul-${orgId}`,
      }),
      (error) => error instanceof ToolFailure && error.code === "NOT_FOUND",
    );
  }
  assert.deepEqual(await db.query("select 1 from public.wa_outbox"), []);
  assert.deepEqual(await db.query("select 1 from public.messages"), []);
});
