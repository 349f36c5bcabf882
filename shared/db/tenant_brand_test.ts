import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";

const BEAVER_WAREHOUSE = "d0000000-0000-4000-8000-000000000001";

dbTest("a venue is told of a new order in its tenant's brand, not EasyMO's", async (db) => {
  await db.query(
    "update public.businesses set owner_whatsapp = '250788999123' where id = $1",
    [BEAVER_WAREHOUSE],
  );
  const [order] = await db.query<{ id: string }>(
    `insert into public.orders (org_id, business_id, customer_id, total)
     values ($1, $2, $3, 6500) returning id`,
    [ORG.beaver, BEAVER_WAREHOUSE, USER.nina],
  );
  const [told] = await db.asCaller(
    { sub: USER.nina, role: "authenticated" },
    (tx) =>
      tx.query<{ id: string | null }>("select private.notify_venue_of_order($1) as id", [
        order.id,
      ]),
  );
  assert.ok(told.id, "the venue was not told");
  const [message] = await db.query<{ text: string; org_id: string }>(
    `select body #>> '{interactive,body,text}' as text, org_id from public.wa_outbox where id = $1`,
    [told.id],
  );
  assert.equal(message.org_id, ORG.beaver);
  assert.match(message.text, /^Beaver's Choice: new order /);
});

// The brand as written ("EasyMO"), not the settings namespace (`easymo.rate_grant`).
dbTest("no database function speaks in one tenant's name", async (db) => {
  const named = await db.query<{ name: string }>(
    `select n.nspname || '.' || p.proname as name
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private', 'automations') and p.prosrc like '%EasyMO%'
     order by 1`,
  );
  assert.deepEqual(named.map((row) => row.name), []);
});
