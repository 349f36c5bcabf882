import assert from "node:assert/strict";
import { z } from "zod";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ToolRegistry } from "@shared/registry/registry.ts";
import type { Database } from "@shared/db/types.ts";
import { createCatalogSync } from "./catalog_sync.ts";
import type { CatalogService } from "./catalog_entries.ts";

function tool(name: string, description = `Does ${name}.`) {
  return defineTool({
    name,
    title: name.replaceAll("_", " "),
    description,
    category: "testing",
    input: z.object({ q: z.string().describe("What to look for") }),
    output: z.object({ n: z.number() }),
    examples: [{ input: { q: "x" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ n: 1 }),
  });
}

const SERVICES: CatalogService[] = [{
  name: "shop",
  title: "Shop",
  summary: "Things to buy.",
  kind: "pack",
  capabilities: {
    events: [{
      name: "order_paid",
      description: "An order was paid",
      payload: z.object({
        order_id: z.uuid().describe("The order"),
        amount: z.object({ value: z.number().describe("How much") }),
      }),
    }],
    notes: "Paid orders arrive within a minute.",
  },
}];

function setup(db: Database) {
  const registry = new ToolRegistry();
  const sync = createCatalogSync({
    db,
    registry,
    services: SERVICES,
    serviceOf: (_tool, tenantId) => tenantId ? "crm_api" : "shop",
  });
  return { registry, sync };
}

async function rows(db: Database, orgId: string | null) {
  return await db.query<{ name: string; is_active: boolean; description: string }>(
    `select name, is_active, description from public.service_tools
     where org_id is not distinct from $1::uuid order by name`,
    [orgId],
  );
}

dbTest("catalog sync adds, rewrites and deactivates shared rows", async (db) => {
  const { registry, sync } = setup(db);
  registry.register(tool("shop_find"));
  const handle = registry.register(tool("shop_pay"));
  const first = await sync.syncShared();
  assert.equal(first.written, 2);
  assert.deepEqual((await rows(db, null)).map((r) => [r.name, r.is_active]), [
    ["shop_find", true],
    ["shop_pay", true],
  ]);
  // Nothing changed: one read, no write.
  assert.deepEqual(await sync.syncShared(), { written: 0, deactivated: 0, unchanged: true });

  handle.unregister();
  registry.register(tool("shop_pay", "Pays an order, now with receipts."));
  registry.register(tool("shop_refund"));
  const changed = await sync.syncShared();
  assert.equal(changed.written, 2);
  const now = await rows(db, null);
  assert.equal(
    now.find((r) => r.name === "shop_pay")?.description,
    "Pays an order, now with receipts.",
  );

  const registry2 = new ToolRegistry();
  registry2.register(tool("shop_find"));
  const sync2 = createCatalogSync({
    db,
    registry: registry2,
    services: SERVICES,
    serviceOf: () => "shop",
  });
  const removed = await sync2.syncShared();
  assert.equal(removed.deactivated, 2);
  assert.deepEqual((await rows(db, null)).map((r) => [r.name, r.is_active]), [
    ["shop_find", true],
    ["shop_pay", false],
    ["shop_refund", false],
  ]);

  const [caps] = await db.query<{ supports_webhooks: boolean; webhook_payload_schemas: unknown }>(
    `select supports_webhooks, webhook_payload_schemas from automations.service_capabilities
     where service_name = 'shop'`,
  );
  assert.equal(caps.supports_webhooks, true);
  assert.deepEqual(caps.webhook_payload_schemas, {
    order_paid: {
      description: "An order was paid",
      trigger_data_fields: { "event.order_id": "The order", "event.amount.value": "How much" },
    },
  });
});

dbTest(
  "catalog sync follows a tenant's run-time tools and keeps them from other tenants",
  async (db) => {
    const { registry, sync } = setup(db);
    registry.register(tool("shop_find"));
    await sync.syncShared();
    const stop = sync.watch();
    const handle = registry.register(tool("crm_lookup"), { tenantId: ORG.beaver });
    await sync.settled();
    assert.deepEqual((await rows(db, ORG.beaver)).map((r) => [r.name, r.is_active]), [
      ["crm_lookup", true],
    ]);
    // A member of Beaver sees it with the shared ones; a member of EasyMO does not.
    const visible = (user: string) =>
      db.asCaller(
        { role: "authenticated", sub: user },
        (tx) => tx.query<{ name: string }>("select name from public.service_tools order by name"),
      );
    assert.deepEqual(
      (await visible(USER.nina)).map((r) => r.name),
      ["crm_lookup", "shop_find"],
    );
    assert.deepEqual((await visible(USER.aline)).map((r) => r.name), ["shop_find"]);
    const services = await db.asCaller(
      { role: "authenticated", sub: USER.aline },
      (tx) => tx.query<{ name: string }>("select name from public.services order by name"),
    );
    assert.deepEqual(services.map((s) => s.name), ["shop"]);

    handle.unregister();
    await sync.settled();
    stop();
    assert.deepEqual((await rows(db, ORG.beaver)).map((r) => [r.name, r.is_active]), [
      ["crm_lookup", false],
    ]);
  },
);

dbTest("catalog sync from two instances at once leaves one row per tool", async (db) => {
  const a = setup(db);
  const b = setup(db);
  for (const { registry } of [a, b]) {
    for (const name of ["shop_a", "shop_b", "shop_c", "shop_d"]) registry.register(tool(name));
  }
  await Promise.all([a.sync.syncShared(), b.sync.syncShared(), a.sync.syncShared()]);
  const [count] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.service_tools where org_id is null",
  );
  assert.equal(count.n, 4);
  const [services] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.services where org_id is null",
  );
  assert.equal(services.n, 1);
});

dbTest("a tenant's tool row never takes a shared tool's name", async (db) => {
  const { registry, sync } = setup(db);
  registry.register(tool("shop_find"));
  await sync.syncShared();
  const other = new ToolRegistry();
  other.register(tool("shop_find"), { tenantId: ORG.beaver });
  const rogue = createCatalogSync({
    db,
    registry: other,
    services: [],
    serviceOf: () => "crm_api",
  });
  await assert.rejects(rogue.syncTenant(ORG.beaver), /shop_find/);
  assert.equal((await rows(db, ORG.beaver)).length, 0);
});
