/**
 * Writes that cross a tenant, or another customer's rows, are refused by
 * Postgres itself, whoever issues them: for every table that references a
 * tenant-owned row, each role tries the cross write directly in SQL
 * (migration 20261123000100_tenant_write_fences.sql).
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import type { JwtClaims, Queryable } from "./types.ts";
import { ORG, USER } from "@testing/seed.ts";

/** Who issues a write. */
type Actor = "anon" | "customer A" | "staff A" | "customer B" | "vendor A" | "service";

/** How a cross write must fail: an RLS refusal, a missing (same-org) reference, or no row matched. */
type Refusal = "42501" | "23503" | "no rows";

interface Attempt {
  actor: Actor;
  what: string;
  sql: string;
  params: unknown[];
}

interface CrossAttempt extends Attempt {
  refusedWith: Refusal;
}

const CLAIMS: Record<Exclude<Actor, "service">, JwtClaims> = {
  "anon": { role: "anon" },
  "customer A": { sub: USER.aline, role: "authenticated" },
  "staff A": { sub: USER.jean, role: "authenticated" },
  "customer B": { sub: USER.nina, role: "authenticated" },
  "vendor A": { sub: USER.eric, role: "authenticated" },
};

/** Rows the cross writes point at; org A is EasyMO, org B Beaver. */
const F = {
  /** A second EasyMO customer. */
  bosco: "00000000-0000-4000-8000-0000000000b5",
  convAline: "e0000000-0000-4000-8000-00000000000a",
  convBosco: "e0000000-0000-4000-8000-00000000000b",
  convNina: "e0000000-0000-4000-8000-00000000000c",
  ticketAline: "e1000000-0000-4000-8000-00000000000a",
  ticketBosco: "e1000000-0000-4000-8000-00000000000b",
  ticketNina: "e1000000-0000-4000-8000-00000000000c",
  inquiryAline: "e2000000-0000-4000-8000-00000000000a",
  inquiryBosco: "e2000000-0000-4000-8000-00000000000b",
  inquiryNina: "e2000000-0000-4000-8000-00000000000c",
  orderAline: "e3000000-0000-4000-8000-00000000000a",
  orderBosco: "e3000000-0000-4000-8000-00000000000b",
  orderNina: "e3000000-0000-4000-8000-00000000000c",
  outboxA: "e4000000-0000-4000-8000-00000000000a",
  outboxB: "e4000000-0000-4000-8000-00000000000c",
  /** Products of Eric's pharmacy, Diane's café (both org A) and Beaver's warehouse. */
  productA: "e5000000-0000-4000-8000-00000000000a",
  productA2: "e5000000-0000-4000-8000-00000000000b",
  productB: "e5000000-0000-4000-8000-00000000000c",
  /** Eric's pharmacy and Diane's café (org A), Beaver's warehouse (org B). */
  businessA: "c0000000-0000-4000-8000-000000000001",
  businessA2: "c0000000-0000-4000-8000-000000000002",
  businessB: "d0000000-0000-4000-8000-000000000001",
  /** No row has this id. */
  missing: "9f000000-0000-4000-8000-000000000000",
} as const;

async function seedFixtures(db: TestDatabase): Promise<void> {
  const A = ORG.easymo, B = ORG.beaver;
  await db.transaction(async (tx) => {
    await tx.query("insert into auth.users (id, phone) values ($1, '250788000099')", [F.bosco]);
    await tx.query(
      "insert into public.profiles (id, phone, display_name) values ($1, '+250788000099', 'Bosco')",
      [F.bosco],
    );
    await tx.query(
      "insert into public.org_members (org_id, user_id, role) values ($1, $2, 'customer')",
      [A, F.bosco],
    );
    const rows: [string, unknown[][]][] = [
      ["conversations (id, org_id, user_id)", [
        [F.convAline, A, USER.aline],
        [F.convBosco, A, F.bosco],
        [F.convNina, B, USER.nina],
      ]],
      ["staff_tickets (id, org_id, convo_id, requester_user_id, channel, reason, summary)", [
        [F.ticketAline, A, F.convAline, USER.aline, "inbox", "r", "s"],
        [F.ticketBosco, A, F.convBosco, F.bosco, "inbox", "r", "s"],
        [F.ticketNina, B, F.convNina, USER.nina, "inbox", "r", "s"],
      ]],
      [
        "market_vendor_inquiries (id, org_id, user_id, user_phone, request_type, request_summary, expires_at)",
        [
          [F.inquiryAline, A, USER.aline, "+250788000001", "product", "x", "2099-01-01T00:00:00Z"],
          [F.inquiryBosco, A, F.bosco, "+250788000099", "product", "x", "2099-01-01T00:00:00Z"],
          [F.inquiryNina, B, USER.nina, "+250788000011", "product", "x", "2099-01-01T00:00:00Z"],
        ],
      ],
      ["products (id, org_id, business_id, sku, name, price)", [
        [F.productA, A, F.businessA, "T-A", "Test A", 100],
        [F.productA2, A, F.businessA2, "T-A2", "Test A2", 100],
        [F.productB, B, F.businessB, "T-B", "Test B", 100],
      ]],
      ["orders (id, org_id, business_id, customer_id, total)", [
        [F.orderAline, A, F.businessA, USER.aline, 100],
        [F.orderBosco, A, F.businessA, F.bosco, 100],
        [F.orderNina, B, F.businessB, USER.nina, 100],
      ]],
      ["wa_outbox (id, org_id, to_wa_id, kind, body, idempotency_key)", [
        [F.outboxA, A, "250788000004", "text", {}, "fixture-a"],
        [F.outboxB, B, "250788000010", "text", {}, "fixture-b"],
      ]],
    ];
    for (const [target, values] of rows) {
      for (const row of values) {
        const marks = row.map((_, index) => `$${index + 1}`).join(", ");
        await tx.query(`insert into public.${target} values (${marks})`, row);
      }
    }
  });
}

/** An insert statement for one row. */
function insert(table: string, row: Record<string, unknown>): { sql: string; params: unknown[] } {
  const columns = Object.keys(row);
  const marks = columns.map((_, index) => `$${index + 1}`).join(", ");
  return {
    sql: `insert into public.${table} (${columns.join(", ")}) values (${marks})`,
    params: Object.values(row),
  };
}

function run<T>(db: TestDatabase, actor: Actor, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return actor === "service" ? db.asService(fn) : db.asCaller(CLAIMS[actor], fn);
}

/** Every row of `table`, so a refused write can be shown to have changed nothing. */
async function snapshot(db: TestDatabase, table: string): Promise<string> {
  const [row] = await db.query<{ rows: string | null }>(
    `select string_agg(t::text, E'\\n' order by t::text) as rows from public.${table} t`,
  );
  return row.rows ?? "";
}

let tried = 0;
let refused = 0;
globalThis.addEventListener("unload", () => {
  console.log(`tenant write fences: ${refused} of ${tried} cross writes refused`);
});

/**
 * One test per table: each cross write is refused with the expected code and
 * leaves the table as it was; then each legitimate write succeeds.
 */
function fenceTest(
  table: string,
  cases: { cross: CrossAttempt[]; legit: Attempt[]; legitInserts: number },
): void {
  dbTest(
    `tenant writes: ${table} refuses cross-tenant and other-customer references`,
    async (db) => {
      await seedFixtures(db);
      const before = await snapshot(db, table);
      for (const attempt of cases.cross) {
        const label = `${table}: ${attempt.actor} ${attempt.what}`;
        tried++;
        let outcome: Refusal | "written";
        try {
          const rows = await run(db, attempt.actor, (tx) => tx.query(attempt.sql, attempt.params));
          outcome = rows.length === 0 && attempt.sql.includes("returning") ? "no rows" : "written";
        } catch (error) {
          outcome = (error as { code?: string }).code as Refusal;
        }
        assert.equal(outcome, attempt.refusedWith, label);
        refused++;
      }
      assert.equal(await snapshot(db, table), before, `${table}: a refused write changed rows`);
      const [{ n: countBefore }] = await db.query<{ n: number }>(
        `select count(*)::int as n from public.${table}`,
      );
      for (const attempt of cases.legit) {
        const label = `${table}: ${attempt.actor} ${attempt.what}`;
        const rows = await run(db, attempt.actor, (tx) => tx.query(attempt.sql, attempt.params))
          .catch((error) => {
            throw new Error(`${label} failed`, { cause: error });
          });
        if (attempt.sql.includes("returning")) {
          assert.ok(
            rows.length > 0,
            `${label} matched no row`,
          );
        }
      }
      const [{ n: countAfter }] = await db.query<{ n: number }>(
        `select count(*)::int as n from public.${table}`,
      );
      assert.equal(countAfter - countBefore, cases.legitInserts);
      console.log(`${table}: ${cases.cross.length} cross writes refused`);
    },
  );
}

const A = ORG.easymo, B = ORG.beaver;
const refuse = (
  actor: Actor,
  what: string,
  statement: { sql: string; params: unknown[] },
  refusedWith: Refusal,
): CrossAttempt => ({ actor, what, ...statement, refusedWith });
const allow = (actor: Actor, what: string, statement: { sql: string; params: unknown[] }) => ({
  actor,
  what,
  ...statement,
});

// messages ---------------------------------------------------------------------

const message = (org: string, conversation: string, user: string, sender: string) =>
  insert("messages", {
    org_id: org,
    conversation_id: conversation,
    user_id: user,
    direction: sender === "user" ? "inbound" : "outbound",
    sender,
    body: "hello",
  });

fenceTest("messages", {
  cross: [
    refuse(
      "anon",
      "writes into a customer's conversation",
      message(A, F.convAline, USER.aline, "user"),
      "42501",
    ),
    refuse(
      "customer A",
      "writes into another customer's conversation",
      message(A, F.convBosco, USER.aline, "user"),
      "23503",
    ),
    refuse(
      "customer A",
      "writes into another org's conversation",
      message(A, F.convNina, USER.aline, "user"),
      "23503",
    ),
    refuse("customer A", "writes an org B row", message(B, F.convNina, USER.nina, "user"), "42501"),
    refuse(
      "staff A",
      "files a reply under the wrong customer",
      message(A, F.convBosco, USER.aline, "staff"),
      "23503",
    ),
    refuse(
      "staff A",
      "writes into another org's conversation",
      message(A, F.convNina, USER.nina, "staff"),
      "23503",
    ),
    refuse("staff A", "writes an org B row", message(B, F.convNina, USER.nina, "staff"), "42501"),
    refuse(
      "customer B",
      "points an org B row at an org A conversation",
      message(B, F.convAline, USER.nina, "user"),
      "23503",
    ),
    refuse(
      "customer B",
      "writes an org A row",
      message(A, F.convAline, USER.aline, "user"),
      "42501",
    ),
    refuse(
      "service",
      "points an org A row at an org B conversation",
      message(A, F.convNina, USER.nina, "agent"),
      "23503",
    ),
    refuse(
      "service",
      "files a transcript row under another customer",
      message(A, F.convBosco, USER.aline, "agent"),
      "23503",
    ),
  ],
  legit: [
    allow(
      "customer A",
      "writes into their own conversation",
      message(A, F.convAline, USER.aline, "user"),
    ),
    allow(
      "staff A",
      "replies in a conversation of their org",
      message(A, F.convBosco, F.bosco, "staff"),
    ),
    allow("service", "writes an agent reply", message(A, F.convAline, USER.aline, "agent")),
  ],
  legitInserts: 3,
});

// staff_tickets ----------------------------------------------------------------

const ticket = (org: string, convo: string | null, requester: string) =>
  insert("staff_tickets", {
    org_id: org,
    convo_id: convo,
    requester_user_id: requester,
    channel: "inbox",
    reason: "help",
    summary: "needs a person",
  });
const moveTicket = (id: string, convo: string) => ({
  sql: "update public.staff_tickets set convo_id = $2 where id = $1 returning id",
  params: [id, convo],
});

fenceTest("staff_tickets", {
  cross: [
    refuse("anon", "raises a ticket", ticket(A, F.convAline, USER.aline), "42501"),
    refuse(
      "customer A",
      "hands over another customer's conversation",
      ticket(A, F.convBosco, USER.aline),
      "42501",
    ),
    refuse(
      "customer A",
      "hands over another org's conversation",
      ticket(A, F.convNina, USER.aline),
      "42501",
    ),
    refuse(
      "customer A",
      "hands over a conversation that does not exist",
      ticket(A, F.missing, USER.aline),
      "42501",
    ),
    refuse(
      "customer A",
      "re-points their ticket at another conversation",
      moveTicket(F.ticketAline, F.convBosco),
      "no rows",
    ),
    refuse(
      "staff A",
      "hands over another org's conversation",
      ticket(A, F.convNina, USER.jean),
      "42501",
    ),
    refuse(
      "staff A",
      "re-points a ticket at another org's conversation",
      moveTicket(F.ticketAline, F.convNina),
      "42501",
    ),
    refuse(
      "customer B",
      "hands over an org A conversation",
      ticket(B, F.convAline, USER.nina),
      "42501",
    ),
    refuse("customer B", "raises an org A ticket", ticket(A, null, USER.nina), "42501"),
    refuse(
      "customer B",
      "re-points an org A ticket",
      moveTicket(F.ticketAline, F.convNina),
      "no rows",
    ),
    refuse(
      "service",
      "points an org A ticket at an org B conversation",
      ticket(A, F.convNina, USER.aline),
      "23503",
    ),
    refuse(
      "service",
      "re-points an org A ticket at an org B conversation",
      moveTicket(F.ticketAline, F.convNina),
      "23503",
    ),
  ],
  legit: [
    allow("customer A", "hands over their own conversation", ticket(A, F.convAline, USER.aline)),
    allow("customer A", "raises a ticket without a conversation", ticket(A, null, USER.aline)),
    allow("staff A", "hands over a conversation of their org", ticket(A, F.convBosco, USER.jean)),
    allow("staff A", "re-points a ticket within their org", moveTicket(F.ticketAline, F.convBosco)),
  ],
  legitInserts: 3,
});

// notification_outbox ----------------------------------------------------------

const notification = (org: string, ticketId: string, author: string | null) =>
  insert("notification_outbox", {
    org_id: org,
    ticket_id: ticketId,
    channel: "slack",
    target: "#support",
    body: "help",
    created_by: author,
  });

fenceTest("notification_outbox", {
  cross: [
    refuse("anon", "stages a notification", notification(A, F.ticketAline, null), "42501"),
    refuse(
      "customer A",
      "stages one for another customer's ticket",
      notification(A, F.ticketBosco, USER.aline),
      "42501",
    ),
    refuse(
      "customer A",
      "stages one for another org's ticket",
      notification(A, F.ticketNina, USER.aline),
      "42501",
    ),
    refuse(
      "staff A",
      "stages one for another org's ticket",
      notification(A, F.ticketNina, USER.jean),
      "42501",
    ),
    refuse(
      "customer B",
      "stages one for an org A ticket",
      notification(B, F.ticketAline, USER.nina),
      "42501",
    ),
    refuse("customer B", "stages an org A row", notification(A, F.ticketAline, USER.nina), "42501"),
    refuse(
      "service",
      "points an org A row at an org B ticket",
      notification(A, F.ticketNina, null),
      "23503",
    ),
  ],
  legit: [
    allow(
      "customer A",
      "stages one for their own ticket",
      notification(A, F.ticketAline, USER.aline),
    ),
    allow(
      "staff A",
      "stages one for a ticket of their org",
      notification(A, F.ticketBosco, USER.jean),
    ),
  ],
  legitInserts: 2,
});

// analytics_events -------------------------------------------------------------

const event = (org: string, user: string | null, convo: string | null) =>
  insert("analytics_events", {
    org_id: org,
    event: "order_started",
    user_id: user,
    convo_id: convo,
  });

fenceTest("analytics_events", {
  cross: [
    refuse("anon", "logs an event", event(A, null, F.convAline), "42501"),
    refuse(
      "customer A",
      "logs into another customer's conversation",
      event(A, USER.aline, F.convBosco),
      "42501",
    ),
    refuse(
      "customer A",
      "logs into another org's conversation",
      event(A, USER.aline, F.convNina),
      "42501",
    ),
    refuse(
      "staff A",
      "logs into another org's conversation",
      event(A, USER.jean, F.convNina),
      "42501",
    ),
    refuse(
      "customer B",
      "logs an org B event on an org A conversation",
      event(B, USER.nina, F.convAline),
      "42501",
    ),
    refuse("customer B", "logs an org A event", event(A, USER.nina, null), "42501"),
    refuse(
      "service",
      "points an org A event at an org B conversation",
      event(A, null, F.convNina),
      "23503",
    ),
  ],
  legit: [
    allow("customer A", "logs into their own conversation", event(A, USER.aline, F.convAline)),
    allow("staff A", "logs into a conversation of their org", event(A, USER.jean, F.convBosco)),
  ],
  legitInserts: 2,
});

// ticket_notes -----------------------------------------------------------------

const note = (org: string, ticketId: string, author: string) =>
  insert("ticket_notes", { org_id: org, ticket_id: ticketId, author_id: author, body: "note" });

fenceTest("ticket_notes", {
  cross: [
    refuse("anon", "writes a note", note(A, F.ticketAline, USER.jean), "42501"),
    refuse(
      "customer A",
      "writes a note on their own ticket",
      note(A, F.ticketAline, USER.aline),
      "42501",
    ),
    refuse("staff A", "notes an org B ticket in org A", note(A, F.ticketNina, USER.jean), "23503"),
    refuse("staff A", "writes an org B note", note(B, F.ticketNina, USER.jean), "42501"),
    refuse("customer B", "notes an org A ticket", note(B, F.ticketAline, USER.nina), "42501"),
    refuse(
      "service",
      "points an org A note at an org B ticket",
      note(A, F.ticketNina, USER.jean),
      "23503",
    ),
  ],
  legit: [allow("staff A", "notes a ticket of their org", note(A, F.ticketBosco, USER.jean))],
  legitInserts: 1,
});

// products ---------------------------------------------------------------------

const product = (org: string, business: string) =>
  insert("products", { org_id: org, business_id: business, sku: "X-1", name: "X", price: 1 });
const moveProduct = (id: string, business: string) => ({
  sql: "update public.products set business_id = $2 where id = $1 returning id",
  params: [id, business],
});

fenceTest("products", {
  cross: [
    refuse("anon", "stocks a product", product(A, F.businessA), "42501"),
    refuse("customer A", "stocks a product", product(A, F.businessA), "42501"),
    refuse("customer A", "moves a product", moveProduct(F.productA, F.businessA2), "no rows"),
    refuse(
      "vendor A",
      "moves their product into another vendor's shop",
      moveProduct(F.productA, F.businessA2),
      "42501",
    ),
    refuse("staff A", "stocks an org B shop from org A", product(A, F.businessB), "42501"),
    refuse(
      "staff A",
      "moves a product into an org B shop",
      moveProduct(F.productA, F.businessB),
      "42501",
    ),
    refuse("customer B", "moves an org A product", moveProduct(F.productA, F.businessB), "no rows"),
    refuse("service", "points an org A product at an org B shop", product(A, F.businessB), "23503"),
    refuse(
      "service",
      "moves an org A product into an org B shop",
      moveProduct(F.productA, F.businessB),
      "23503",
    ),
  ],
  legit: [
    allow("vendor A", "reprices their own product", {
      sql: "update public.products set price = 90 where id = $1 returning id",
      params: [F.productA],
    }),
    allow(
      "staff A",
      "moves a product between shops of their org",
      moveProduct(F.productA, F.businessA2),
    ),
    allow("service", "stocks a shop", product(A, F.businessA)),
  ],
  legitInserts: 1,
});

// orders -----------------------------------------------------------------------

const order = (org: string, business: string, customer: string) =>
  insert("orders", { org_id: org, business_id: business, customer_id: customer, total: 100 });

fenceTest("orders", {
  cross: [
    refuse("anon", "places an order", order(A, F.businessA, USER.aline), "42501"),
    refuse(
      "customer A",
      "orders from another org's shop",
      order(A, F.businessB, USER.aline),
      "23503",
    ),
    refuse("customer A", "orders for another customer", order(A, F.businessA, F.bosco), "42501"),
    refuse("staff A", "orders from another org's shop", order(A, F.businessB, USER.jean), "23503"),
    refuse(
      "customer B",
      "points an org B order at an org A shop",
      order(B, F.businessA, USER.nina),
      "23503",
    ),
    refuse("customer B", "places an org A order", order(A, F.businessA, USER.nina), "42501"),
    refuse(
      "service",
      "points an org A order at an org B shop",
      order(A, F.businessB, USER.aline),
      "23503",
    ),
  ],
  legit: [
    allow("customer A", "orders from a shop of their org", order(A, F.businessA, USER.aline)),
  ],
  legitInserts: 1,
});

// order_items ------------------------------------------------------------------

const item = (org: string, orderId: string, productId: string) =>
  insert("order_items", {
    org_id: org,
    order_id: orderId,
    product_id: productId,
    sku: "T",
    name: "T",
    qty: 1,
    unit_price: 100,
    line_total: 100,
  });

fenceTest("order_items", {
  cross: [
    refuse("anon", "adds a line", item(A, F.orderAline, F.productA), "42501"),
    refuse(
      "customer A",
      "adds to another customer's order",
      item(A, F.orderBosco, F.productA),
      "42501",
    ),
    refuse("customer A", "adds another org's product", item(A, F.orderAline, F.productB), "42501"),
    refuse(
      "customer A",
      "adds another shop's product",
      item(A, F.orderAline, F.productA2),
      "42501",
    ),
    refuse(
      "customer A",
      "files their line under org B",
      item(B, F.orderAline, F.productB),
      "42501",
    ),
    refuse("staff A", "adds to a customer's order", item(A, F.orderAline, F.productA), "42501"),
    refuse("customer B", "adds to an org A order", item(B, F.orderAline, F.productB), "42501"),
    refuse(
      "customer B",
      "adds an org A product to their order",
      item(B, F.orderNina, F.productA),
      "42501",
    ),
    refuse(
      "service",
      "points an org A line at an org B product",
      item(A, F.orderAline, F.productB),
      "23503",
    ),
    refuse(
      "service",
      "points an org A line at an org B order",
      item(A, F.orderNina, F.productA),
      "23503",
    ),
  ],
  legit: [
    allow("customer A", "adds a product of the order's shop", item(A, F.orderAline, F.productA)),
  ],
  legitInserts: 1,
});

// market_vendor_feedback -------------------------------------------------------

const feedback = (org: string, business: string, inquiry: string | null, user: string | null) =>
  insert("market_vendor_feedback", {
    org_id: org,
    business_id: business,
    inquiry_id: inquiry,
    user_id: user,
    feedback_type: "accurate",
  });

fenceTest("market_vendor_feedback", {
  cross: [
    refuse("anon", "rates a vendor", feedback(A, F.businessA, null, null), "42501"),
    refuse(
      "customer A",
      "rates another org's vendor",
      feedback(A, F.businessB, null, USER.aline),
      "23503",
    ),
    refuse(
      "customer A",
      "rates on another customer's inquiry",
      feedback(A, F.businessA, F.inquiryBosco, USER.aline),
      "42501",
    ),
    refuse(
      "customer A",
      "rates on another org's inquiry",
      feedback(A, F.businessA, F.inquiryNina, USER.aline),
      "42501",
    ),
    refuse(
      "staff A",
      "rates another org's vendor",
      feedback(A, F.businessB, null, USER.jean),
      "23503",
    ),
    refuse(
      "customer B",
      "rates an org A vendor",
      feedback(B, F.businessA, null, USER.nina),
      "23503",
    ),
    refuse("customer B", "rates in org A", feedback(A, F.businessA, null, USER.nina), "42501"),
    refuse(
      "service",
      "points org A feedback at an org B vendor",
      feedback(A, F.businessB, null, USER.aline),
      "23503",
    ),
    refuse(
      "service",
      "points org A feedback at an org B inquiry",
      feedback(A, F.businessA, F.inquiryNina, USER.aline),
      "23503",
    ),
  ],
  legit: [
    allow(
      "customer A",
      "rates a vendor of their org on their inquiry",
      feedback(A, F.businessA, F.inquiryAline, USER.aline),
    ),
    allow(
      "customer A",
      "rates a vendor without an inquiry",
      feedback(A, F.businessA2, null, USER.aline),
    ),
  ],
  legitInserts: 2,
});

// market_vendor_inquiry_messages (written by service code only) ---------------

const inquiryMessage = (org: string, inquiry: string, business: string, outbox: string | null) =>
  insert("market_vendor_inquiry_messages", {
    org_id: org,
    inquiry_id: inquiry,
    business_id: business,
    vendor_wa_id: "250788000004",
    outbox_id: outbox,
  });

fenceTest("market_vendor_inquiry_messages", {
  cross: [
    refuse(
      "anon",
      "records a vendor message",
      inquiryMessage(A, F.inquiryAline, F.businessA, null),
      "42501",
    ),
    refuse(
      "customer A",
      "records a vendor message",
      inquiryMessage(A, F.inquiryAline, F.businessA, null),
      "42501",
    ),
    refuse(
      "staff A",
      "records a vendor message",
      inquiryMessage(A, F.inquiryAline, F.businessA, null),
      "42501",
    ),
    refuse(
      "customer B",
      "records a vendor message",
      inquiryMessage(B, F.inquiryNina, F.businessB, null),
      "42501",
    ),
    refuse(
      "service",
      "points an org A row at an org B inquiry",
      inquiryMessage(A, F.inquiryNina, F.businessA, null),
      "23503",
    ),
    refuse(
      "service",
      "points an org A row at an org B vendor",
      inquiryMessage(A, F.inquiryAline, F.businessB, null),
      "23503",
    ),
    refuse(
      "service",
      "points an org A row at an org B outbox message",
      inquiryMessage(A, F.inquiryAline, F.businessA, F.outboxB),
      "23503",
    ),
  ],
  legit: [
    allow(
      "service",
      "records a vendor message",
      inquiryMessage(A, F.inquiryAline, F.businessA, F.outboxA),
    ),
  ],
  legitInserts: 1,
});

// wa_outbox (service code; staff to their own org's contacts) ------------------

const outbound = (org: string, conversation: string | null, key: string) =>
  insert("wa_outbox", {
    org_id: org,
    to_wa_id: "250788000001",
    kind: "text",
    body: { type: "text", text: { body: "hi" } },
    idempotency_key: key,
    conversation_id: conversation,
  });

fenceTest("wa_outbox", {
  cross: [
    refuse("anon", "queues a WhatsApp message", outbound(A, F.convAline, "x1"), "42501"),
    refuse("customer A", "queues a WhatsApp message", outbound(A, F.convAline, "x2"), "42501"),
    refuse(
      "staff A",
      "queues Aline's message in Bosco's conversation",
      outbound(A, F.convBosco, "x3"),
      "42501",
    ),
    refuse("staff A", "queues a message under org B", outbound(B, null, "x6"), "42501"),
    refuse("customer B", "queues a WhatsApp message", outbound(B, F.convNina, "x4"), "42501"),
    refuse(
      "service",
      "points an org A message at an org B conversation",
      outbound(A, F.convNina, "x5"),
      "23503",
    ),
  ],
  legit: [
    allow("service", "queues a reply in an org A conversation", outbound(A, F.convAline, "ok1")),
    allow("staff A", "queues a reply in Aline's own conversation", outbound(A, F.convAline, "ok2")),
  ],
  legitInserts: 2,
});

// businesses: referenced rows keep their org ----------------------------------

const moveBusiness = (id: string, org: string) => ({
  sql: "update public.businesses set org_id = $2 where id = $1 returning id",
  params: [id, org],
});

fenceTest("businesses", {
  cross: [
    refuse("anon", "moves a shop", moveBusiness(F.businessA, B), "no rows"),
    refuse("customer A", "moves a shop", moveBusiness(F.businessA, B), "no rows"),
    refuse("vendor A", "moves their shop to org B", moveBusiness(F.businessA, B), "42501"),
    refuse("staff A", "moves a shop to org B", moveBusiness(F.businessA, B), "42501"),
    refuse("customer B", "moves an org A shop", moveBusiness(F.businessA, B), "no rows"),
    // Its products, orders and feedback would then point across orgs.
    refuse("service", "moves a shop with products to org B", moveBusiness(F.businessA, B), "23503"),
  ],
  legit: [],
  legitInserts: 0,
});

// Delete rules: clearing a reference never clears the row's org ----------------

dbTest(
  "tenant writes: deleting a conversation clears references and keeps each row's org",
  async (db) => {
    await seedFixtures(db);
    await db.query(
      "insert into public.analytics_events (org_id, event, convo_id) values ($1, 'e', $2)",
      [A, F.convAline],
    );
    await db.query(
      message(A, F.convAline, USER.aline, "user").sql,
      message(A, F.convAline, USER.aline, "user").params,
    );
    await db.query("delete from public.conversations where id = $1", [F.convAline]);
    const [ticketRow] = await db.query(
      "select org_id, convo_id from public.staff_tickets where id = $1",
      [
        F.ticketAline,
      ],
    );
    assert.deepEqual(ticketRow, { org_id: A, convo_id: null });
    // The fixtures' tickets wrote handoff_raised events of their own; this one is the test's.
    const events = await db.query(
      "select org_id, convo_id from public.analytics_events where event = 'e'",
    );
    assert.deepEqual(events, [{ org_id: A, convo_id: null }]);
    const messages = await db.query("select 1 from public.messages where conversation_id = $1", [
      F.convAline,
    ]);
    assert.equal(messages.length, 0);
  },
);

// Supabase's advisors flag unindexed foreign keys: each one needs an index
// whose leading columns are the key's columns, in order.
dbTest("tenant writes: every foreign key is indexed", async (db) => {
  const unindexed = await db.query<{ constraint: string }>(
    `select c.conname as constraint
     from pg_catalog.pg_constraint c
     join pg_catalog.pg_namespace n on n.oid = c.connamespace
     where c.contype = 'f' and n.nspname in ('public', 'private')
       and not exists (
         select 1 from pg_catalog.pg_index i
         where i.indrelid = c.conrelid
           and (string_to_array(i.indkey::text, ' ')::smallint[])[1:array_length(c.conkey, 1)]
               = c.conkey
       )
     order by 1`,
  );
  assert.deepEqual(unindexed, []);
});
