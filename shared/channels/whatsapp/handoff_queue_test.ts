import assert from "node:assert/strict";
import { MENU_WORDS } from "@shared/contract/menu_words.ts";
import { answerWhileHandedOff, asksForMenu } from "./handoff_queue.ts";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

Deno.test("asksForMenu() knows every word the router takes for the menu, and 0", () => {
  for (const word of [...MENU_WORDS, "0"]) assert(asksForMenu(word), word);
});

Deno.test("asksForMenu() takes case, end punctuation and spacing as the router does", () => {
  assert(asksForMenu("  Subira   AHABANZA! "));
  assert(asksForMenu("Retour au menu."));
  assert(asksForMenu("MENU?"));
});

Deno.test("asksForMenu() knows the router's wishes to go back to the start, in every language", () => {
  for (
    const text of [
      "go back to the start",
      "i want to go back to the start",
      "back to the main menu please",
      "retour au début",
      "slt, montre moi le menu principal",
      "subira ahabanza",
      "nsubize kuri menu ya mbere",
    ]
  ) {
    assert(asksForMenu(text), text);
  }
});

Deno.test("asksForMenu() leaves a message to staff alone", () => {
  for (
    const text of [
      "",
      "menu du jour ?",
      "what is on the menu",
      "ndashaka menu y'ibiryo",
      "menu".repeat(10_000),
    ]
  ) {
    assert.equal(asksForMenu(text), false, JSON.stringify(text.slice(0, 40)));
  }
});

dbTest(
  "the queue repeats the wait the hand-off quoted: one rule, whatever staff already hold",
  async (db) => {
    const rt = await createTestRuntime(db);
    // Two tickets staff already hold (claimed): nobody waits behind them.
    for (const summary of ["held one", "held two"]) {
      await db.query(
        `insert into public.staff_tickets (org_id, channel, reason, summary, priority, status, claimed_at)
       values ($1, 'inbox', 'r', $2, 'medium', 'claimed', now())`,
        [ORG.easymo, summary],
      );
    }
    const [convo] = await db.query<{ id: string }>(
      "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
      [ORG.easymo, USER.aline],
    );
    const raised = await rt.callAs(USER.aline, "notify_staff", {
      channel: "inbox",
      payload: { convo_id: convo.id, reason: "a person", summary: "Wants a person" },
    }, { idempotencyKey: "wait-1" });
    assert.ok(raised.ok, JSON.stringify(raised));
    // First in the queue, the default hour for a medium ticket.
    assert.equal(raised.data.estimated_response_time, "PT1H");
    for (const text of ["hello?", "still there?"]) {
      const waiting = await answerWhileHandedOff(db, {
        orgId: ORG.easymo,
        conversationId: convo.id,
        locale: "en",
        text,
      });
      const body = JSON.stringify(waiting.replies);
      // In the ticket's language (Aline's profile): first, about 60 minutes.
      assert.match(
        body,
        /(?:number 1 in the queue \(about 60 min|uwa 1 ku murongo \(nk'iminota 60)/,
        body,
      );
    }
  },
);

dbTest(
  "an order typed while waiting goes on the ticket for the person, priced, and the place is kept",
  async (db) => {
    const rt = await createTestRuntime(db);
    const [convo] = await db.query<{ id: string }>(
      "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
      [ORG.beaver, USER.nina],
    );
    const raised = await rt.callAs(USER.nina, "notify_staff", {
      channel: "inbox",
      payload: {
        convo_id: convo.id,
        reason: "a person",
        summary: "Wants a person",
        language: "rw",
      },
    }, { idempotencyKey: "order-1", org: ORG.beaver });
    assert.ok(raised.ok, JSON.stringify(raised));
    const waiting = await answerWhileHandedOff(db, {
      orgId: ORG.beaver,
      conversationId: convo.id,
      locale: "rw",
      text: "Turashaka impapuro A4 ipaki 50",
    });
    const body = JSON.stringify(waiting.replies);
    assert.equal(waiting.left, false);
    assert.match(body, /nariyongeye ku busabe bwawe/, body);
    assert.match(
      body,
      /50 × Impapuro A4 \(impapuro 500\) \(Beaver Paper Warehouse\) — 325,000 RWF/,
      body,
    );
    assert.match(body, /Uri uwa 1 ku murongo/, body);
    const [ticket] = await db.query<{ summary: string }>(
      "select summary from public.staff_tickets where id = $1",
      [raised.data.ticket_id],
    );
    assert.match(ticket.summary, /Order asked while waiting: 50 × A4 paper \(500 sheets\)/);
    // A question is no order: nothing more is added.
    await answerWhileHandedOff(db, {
      orgId: ORG.beaver,
      conversationId: convo.id,
      locale: "rw",
      text: "impapuro A4 ni angahe?",
    });
    const [after] = await db.query<{ summary: string }>(
      "select summary from public.staff_tickets where id = $1",
      [raised.data.ticket_id],
    );
    assert.equal(after.summary, ticket.summary);
  },
);
