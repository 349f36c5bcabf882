import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { buildSearchQuery, createSearchSupabase } from "./search_supabase.ts";

dbTest("search_supabase filters, orders and limits an allowlisted table", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "search_supabase", {
    table: "products",
    columns: ["sku", "price"],
    filters: [{ column: "price", op: "lte", value: 3500 }, {
      column: "sku",
      op: "in",
      value: ["PARA-500", "VITC-1000", "CEM-50"],
    }, { column: "business_id", op: "eq", value: "c0000000-0000-4000-8000-000000000001" }],
    order: { column: "price", ascending: false },
    limit: 5,
  });
  assert.deepEqual(result, {
    ok: true,
    data: { items: [{ sku: "VITC-1000", price: 3500 }, { sku: "PARA-500", price: 500 }], count: 2 },
  });
});

dbTest("search_supabase matches text case-insensitively and tags by containment", async (db) => {
  const rt = await createTestRuntime(db);
  const byName = await rt.callAs(USER.aline, "search_supabase", {
    table: "businesses",
    columns: ["name"],
    filters: [{ column: "area", op: "ilike", value: "KIMIHUR" }],
  });
  assert.deepEqual(byName.ok && byName.data.items, [{ name: "Pharmacie Conseil Kimihurura" }]);
  const byTag = await rt.callAs(USER.aline, "search_supabase", {
    table: "businesses",
    columns: ["name"],
    filters: [{ column: "tags", op: "contains", value: ["coffee", "lunch"] }],
  });
  assert.deepEqual(byTag.ok && byTag.data.items, [{ name: "Café Nyamirambo" }]);
  // % and _ are literal, not wildcards.
  const wildcard = await rt.callAs(USER.aline, "search_supabase", {
    table: "businesses",
    filters: [{ column: "name", op: "ilike", value: "%" }],
  });
  assert.deepEqual(wildcard.ok && wildcard.data.count, 0);
});

dbTest(
  "search_supabase finds a product by its name in any language, never by a language key",
  async (db) => {
    const rt = await createTestRuntime(db);
    const find = (value: string) =>
      rt.callAs(USER.nina, "search_supabase", {
        table: "products",
        columns: ["sku"],
        filters: [{ column: "names", op: "ilike", value }],
        order: { column: "sku", ascending: true },
      }, { org: ORG.beaver });
    const french = await find("ENVELOPPE");
    assert.deepEqual(french.ok && french.data.items, [{ sku: "ENV-C5-50" }]);
    const kinyarwanda = await find("amabahasha");
    assert.deepEqual(kinyarwanda.ok && kinyarwanda.data.items, [{ sku: "ENV-C5-50" }]);
    // The keys ("rw", "fr") are no names; % stays literal.
    for (const value of ['"fr"', "fr", "%"]) {
      const found = await find(value);
      assert.deepEqual(found.ok && found.data.count, 0, value);
    }
  },
);

dbTest(
  "search_supabase refuses unknown tables, columns and operators with VALIDATION_ERROR",
  async (db) => {
    const rt = await createTestRuntime(db);
    const cases = [
      [{ table: "auth.users" }, "table"],
      [{ table: "profiles" }, "table"],
      [{ table: "products", columns: ["price", "org_id"] }, "columns.1"],
      [{
        table: "products",
        filters: [{ column: "price; drop table products", op: "eq", value: 1 }],
      }, "filters.0.column"],
      [{ table: "products", filters: [{ column: "price", op: "like", value: 1 }] }, "filters.0.op"],
      [{ table: "products", filters: [{ column: "price", op: "ilike", value: "1" }] }, "filters.0"],
      [
        { table: "products", filters: [{ column: "price", op: "eq", value: "1 or 1=1" }] },
        "filters.0",
      ],
      [
        { table: "products", filters: [{ column: "id", op: "eq", value: "x' or '1'='1" }] },
        "filters.0",
      ],
      [
        { table: "products", order: { column: "1; select pg_sleep(1)", ascending: true } },
        "order.column",
      ],
      [{ table: "products", limit: 1000 }, "limit"],
    ] as const;
    const products = () =>
      db.query<{ n: number }>("select count(*)::int as n from public.products");
    const [{ n: before }] = await products();
    for (const [args, path] of cases) {
      const result = await rt.callAs(USER.aline, "search_supabase", args);
      assert.equal(result.ok, false, JSON.stringify(args));
      if (result.ok) continue;
      assert.equal(result.error.code, "VALIDATION_ERROR");
      assert.ok(
        result.error.fields?.some((field: { path: string }) => field.path === path),
        `${JSON.stringify(args)} → ${JSON.stringify(result.error.fields)}`,
      );
    }
    const [{ n }] = await products();
    assert.equal(n, before);
  },
);

dbTest("search_supabase sees only the caller's tenant (RLS)", async (db) => {
  const rt = await createTestRuntime(db);
  const easymo = await rt.callAs(USER.aline, "search_supabase", {
    table: "products",
    columns: ["sku"],
  });
  const beaver = await rt.callAs(USER.nina, "search_supabase", {
    table: "products",
    columns: ["sku"],
  }, { org: ORG.beaver });
  assert.ok(easymo.ok && beaver.ok);
  const skus = (result: typeof easymo) =>
    result.ok ? result.data.items.map((i: { sku: string }) => i.sku).sort() : [];
  assert.deepEqual(skus(beaver), ["A3-500", "A4-500", "A4-BOX-5", "CARD-200", "ENV-C5-50"]);
  assert.ok(!skus(easymo).includes("A4-500"));
  // A customer sees no staff tickets; naming another org's id in a filter finds nothing either.
  await rt.callAs(USER.jean, "notify_staff", {
    channel: "inbox",
    payload: { reason: "r", summary: "s" },
  }, { idempotencyKey: "t1" });
  const tickets = await rt.callAs(USER.nina, "search_supabase", { table: "staff_tickets" }, {
    org: ORG.beaver,
  });
  assert.deepEqual(tickets.ok && tickets.data.count, 0);
});

dbTest(
  "search_supabase answers a person who belongs to two tenants from the tenant asked only",
  async (db) => {
    // Aline, EasyMO's customer, also buys paper from Beaver's Choice.
    await db.query(
      "insert into public.org_members (org_id, user_id, role) values ($1, $2, 'customer')",
      [ORG.beaver, USER.aline],
    );
    const rt = await createTestRuntime(db);
    const names = async (org: string) => {
      const result = await rt.callAs(USER.aline, "search_supabase", {
        table: "businesses",
        columns: ["name"],
        limit: 100,
      }, { org });
      assert.ok(result.ok, JSON.stringify(result));
      return result.data.items.map((item: { name: string }) => item.name);
    };
    assert.deepEqual(await names(ORG.beaver), ["Beaver Paper Warehouse"]);
    const easymo = await names(ORG.easymo);
    assert.ok(easymo.includes("Café Nyamirambo"), JSON.stringify(easymo));
    assert.ok(!easymo.includes("Beaver Paper Warehouse"), JSON.stringify(easymo));
    const hours = await rt.callAs(USER.aline, "search_supabase", {
      table: "venue_hours",
      columns: ["business_id"],
      limit: 100,
    }, { org: ORG.beaver });
    assert.ok(hours.ok && hours.data.count > 0, JSON.stringify(hours));
    assert.ok(
      hours.data.items.every((row: { business_id: string }) =>
        row.business_id === "d0000000-0000-4000-8000-000000000001"
      ),
    );
  },
);

Deno.test("buildSearchQuery() binds every value and quotes only allowlisted names", () => {
  const { text, params } = buildSearchQuery({
    table: "products",
    filters: [{ column: "name", op: "ilike", value: "50%_off" }],
    limit: 3,
  }, { products: { name: "text", sku: "text" } });
  assert.match(text, /"name" ilike \$1/);
  assert.match(text, /limit \$2/);
  assert.deepEqual(params, ["%50\\%\\_off%", 3]);
});

Deno.test("createSearchSupabase() reads only the tables it is given and refuses none", () => {
  const tool = createSearchSupabase({ notes: { id: "uuid", body: "text" } });
  assert.ok(tool.input.safeParse({ table: "notes", columns: ["body"] }).success);
  const other = tool.input.safeParse({ table: "businesses" });
  assert.ok(!other.success);
  assert.deepEqual(other.error.issues[0].path, ["table"]);
  const column = tool.input.safeParse({ table: "notes", columns: ["secret"] });
  assert.ok(!column.success);
  assert.deepEqual(column.error.issues[0].path, ["columns", 0]);
  assert.throws(() => createSearchSupabase({}), TypeError);
});

dbTest(
  "search_supabase gives numbers as numbers and instants as ISO text, on both databases",
  async (db) => {
    const rt = await createTestRuntime(db);
    await db.query(
      `insert into public.orders (org_id, business_id, customer_id, total, created_at)
     values ($1, 'c0000000-0000-4000-8000-000000000002', $2, 5000, '2026-11-23T08:15:30.123456Z')`,
      [ORG.easymo, USER.aline],
    );
    const result = await rt.callAs(USER.aline, "search_supabase", {
      table: "orders",
      columns: ["order_no", "total", "created_at"],
      order: { column: "created_at", ascending: false },
      limit: 1,
    });
    assert.ok(result.ok, JSON.stringify(result));
    const [order] = result.data.items;
    assert.equal(order.total, 5000);
    assert.match(order.order_no, /^[A-Z]-\d+$/);
    // to_jsonb's text of the instant, microseconds kept: the same string on PGlite and Postgres.
    assert.match(order.created_at, /^2026-11-23T\d\d:15:30\.123456[+-]\d\d:\d\d$/);
    assert.equal(new Date(order.created_at).toISOString(), "2026-11-23T08:15:30.123Z");
  },
);
