/**
 * The second tenant's staff in the Admin Inbox, on PGlite and Postgres: Paul (Beaver's Choice
 * staff) picks up a Beaver customer's hand-off and sees Beaver's tickets, orders and proformas
 * only; nothing of EasyMO's shows, and every action on an EasyMO row answers as if it did not
 * exist, through the inbox's own HTTP API and through the tools staff call.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createAdminApp } from "./app.ts";

/** Aline's order at Café Nyamirambo (EasyMO), placed and confirmed through order_create. */
async function placeOrder(rt: TestRuntime, key: string): Promise<{ order_id: string }> {
  const args = {
    venue_id: "c0000000-0000-4000-8000-000000000002",
    items: [{ sku: "BRO-GOAT", qty: 2 }],
  };
  const asked = await rt.callAs(USER.aline, "order_create", args, { idempotencyKey: key });
  const placed = await rt.callAs(USER.aline, "order_create", args, {
    idempotencyKey: key,
    confirmation: asked.error.confirmation.token,
  });
  assert.ok(placed.ok, JSON.stringify(placed));
  return placed.data;
}

const WAREHOUSE = "d0000000-0000-4000-8000-000000000001";
const NINA_WA = "250788000011";

async function serve(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const app = createAdminApp(rt);
  const server = serveFunction("admin-messages", (request) => app.fetch(request));
  const as = async (userId: string) => {
    const token = await rt.tokenFor(userId);
    return async (path: string, init: { method?: string; body?: unknown; key?: string } = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? "GET",
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.key ? { "idempotency-key": init.key } : {}),
          ...(init.body ? { "content-type": "application/json" } : {}),
        },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      });
      return { status: response.status, body: await response.json() };
    };
  };
  return { rt, as, close: () => server.close() };
}

/** A customer of `org` wrote on WhatsApp and asked for a person. */
async function handOff(
  rt: TestRuntime,
  db: TestDatabase,
  o: { org: string; user: string; waId: string; summary: string },
): Promise<string> {
  const [conversation] = await db.query<{ id: string }>(
    `insert into public.conversations (org_id, user_id, channel) values ($1, $2, 'whatsapp')
     returning id`,
    [o.org, o.user],
  );
  await db.query(
    `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body)
     values ($1, $2, $3, 'inbound', 'user', $4)`,
    [o.org, conversation.id, o.user, o.summary],
  );
  await db.query(
    `insert into public.wa_contacts (wa_id, org_id, last_inbound_at)
     values ($1, $2, now() - interval '10 minutes') on conflict do nothing`,
    [o.waId, o.org],
  );
  const raised = await rt.callAs(o.user, "notify_staff", {
    channel: "inbox",
    payload: { convo_id: conversation.id, reason: "wants a person", summary: o.summary },
  }, { idempotencyKey: crypto.randomUUID(), org: o.org });
  assert.ok(raised.ok, JSON.stringify(raised));
  return raised.data.ticket_id;
}

dbTest(
  "Beaver's staff see and act on Beaver's hand-offs, orders and proformas only, never EasyMO's",
  async (db) => {
    const { rt, as, close } = await serve(db);
    try {
      const easymoTicket = await handOff(rt, db, {
        org: ORG.easymo,
        user: USER.aline,
        waId: "250788000001",
        summary: "Aline's brochettes are late",
      });
      const beaverTicket = await handOff(rt, db, {
        org: ORG.beaver,
        user: USER.nina,
        waId: NINA_WA,
        summary: "Nina: a damaged box of A4",
      });
      const easymoOrder = await placeOrder(rt, "staff-iso-order");
      const easymoProforma = await rt.callAs(USER.aline, "proforma_issue", {
        business_id: "c0000000-0000-4000-8000-000000000003",
        items: [{
          sku: (await db.query<{ sku: string }>(
            "select sku from public.products where business_id = $1 and is_available limit 1",
            ["c0000000-0000-4000-8000-000000000003"],
          ))[0].sku,
          qty: 1,
        }],
        customer_name: "Aline Uwase",
      }, { idempotencyKey: "staff-iso-pf-a" });
      assert.ok(easymoProforma.ok, JSON.stringify(easymoProforma));
      const beaverProforma = await rt.callAs(USER.nina, "proforma_issue", {
        business_id: WAREHOUSE,
        items: [{ sku: "A4-500", qty: 10 }],
        customer_name: "GS Kacyiru",
        customer_tin: "102345678",
      }, { idempotencyKey: "staff-iso-pf-b", org: ORG.beaver });
      assert.ok(beaverProforma.ok, JSON.stringify(beaverProforma));

      const paul = await as(USER.paul);
      assert.deepEqual(
        (await paul("/me")).body.data.orgs.map((org: { slug: string }) => org.slug),
        ["beaver-paper"],
      );
      // The queue: Beaver's hand-off, nothing of EasyMO's.
      const queue = await paul("/tickets?status=all");
      assert.equal(queue.status, 200);
      assert.deepEqual(queue.body.data.tickets.map((t: { id: string }) => t.id), [beaverTicket]);
      assert.doesNotMatch(JSON.stringify(queue.body), /Aline|brochettes|EasyMO|Café/);
      // Picking it up, reading it, answering it.
      assert.equal((await paul(`/tickets/${beaverTicket}/claim`, { method: "POST" })).status, 200);
      const opened = await paul(`/tickets/${beaverTicket}`);
      assert.equal(opened.status, 200);
      assert.match(JSON.stringify(opened.body), /damaged box of A4/);
      const replied = await paul(`/tickets/${beaverTicket}/reply`, {
        method: "POST",
        body: { text: "Sorry about the box: we will replace it tomorrow." },
        key: "paul-reply-1",
      });
      assert.equal(replied.status, 200, JSON.stringify(replied.body));
      const [sent] = await db.query<{ org_id: string }>(
        "select org_id from public.wa_outbox where to_wa_id = $1 order by seq desc limit 1",
        [NINA_WA],
      );
      assert.equal(sent.org_id, ORG.beaver, "the reply leaves from Beaver's number");

      // EasyMO's ticket does not exist for Paul, whatever he tries.
      assert.equal((await paul(`/tickets/${easymoTicket}`)).status, 404);
      for (const action of ["claim", "resolve", "release"]) {
        const tried = await paul(`/tickets/${easymoTicket}/${action}`, { method: "POST" });
        assert.equal(tried.status, 404, `${action}: ${JSON.stringify(tried.body)}`);
      }
      for (
        const [path, body] of [
          ["reply", { text: "hello from Beaver" }],
          ["notes", { text: "sneaky" }],
          ["assign", { staff_id: USER.paul }],
        ] as const
      ) {
        const tried = await paul(`/tickets/${easymoTicket}/${path}`, {
          method: "POST",
          body,
          key: `paul-${path}`,
        });
        assert.equal(tried.status, 404, `${path}: ${JSON.stringify(tried.body)}`);
      }
      const [untouched] = await db.query<{ status: string; assigned_to: string | null }>(
        "select status, assigned_to from public.staff_tickets where id = $1",
        [easymoTicket],
      );
      assert.deepEqual(untouched, { status: "open", assigned_to: null });
      const [{ n: aliens }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.wa_outbox where to_wa_id = '250788000001' and body::text like '%Beaver%'",
      );
      assert.equal(aliens, 0);

      // Orders and proformas read as Paul: Beaver's only.
      const readAsPaul = <T>(sql: string) =>
        db.asCaller({ sub: USER.paul, role: "authenticated" }, (tx) => tx.query<T>(sql));
      assert.deepEqual(
        (await readAsPaul<{ org_id: string }>("select distinct org_id from public.orders"))
          .filter((row) => row.org_id !== ORG.beaver),
        [],
      );
      assert.deepEqual(
        await readAsPaul<{ number: string; customer_tin: string | null }>(
          "select number, customer_tin from public.proformas order by number",
        ),
        [{ number: beaverProforma.data.number, customer_tin: "102345678" }],
      );
      // Acting on EasyMO's order or proforma through the tools answers as if it did not exist.
      const moved = await rt.callAs(USER.paul, "order_status_update", {
        order_id: easymoOrder.order_id,
        status: "cancelled",
      }, { idempotencyKey: "paul-move", org: ORG.beaver });
      assert.equal(moved.ok, false);
      assert.equal(moved.error.code, "NOT_FOUND", JSON.stringify(moved));
      const pdf = await rt.callAs(USER.paul, "proforma_pdf", {
        proforma_id: easymoProforma.data.proforma_id,
      }, { org: ORG.beaver });
      assert.equal(pdf.ok, false);
      assert.equal(pdf.error.code, "NOT_FOUND", JSON.stringify(pdf));
      // Nor can he act as EasyMO's staff by naming its org.
      const asEasymo = await rt.callAs(USER.paul, "order_status_update", {
        order_id: easymoOrder.order_id,
        status: "cancelled",
      }, { idempotencyKey: "paul-move-2", org: ORG.easymo });
      assert.equal(asEasymo.ok, false);
      assert.match(asEasymo.error.code, /AUTH_ERROR|NOT_FOUND/, JSON.stringify(asEasymo));
      const [order] = await db.query<{ status: string }>(
        "select status from public.orders where id = $1",
        [easymoOrder.order_id],
      );
      assert.notEqual(order.status, "cancelled");
    } finally {
      await close();
    }
  },
);
