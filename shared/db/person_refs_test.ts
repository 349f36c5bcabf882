/**
 * A person a row names is a member of the row's org, whoever writes it
 * (issue 23, item 9a; migration 20261126000210_person_refs_same_org.sql).
 * The person references come from the catalog (every foreign key to a
 * profile or a user from a table with an org), so a new one without its
 * membership key fails here.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { seedTenantFixtures, TENANT_A, TENANT_B } from "@testing/tenant_fixtures.ts";
import type { Queryable } from "./types.ts";

/** Person references without a membership key of their own, and why that is safe. */
const COVERED_OTHERWISE: Record<string, string> = {
  "messages.user_id":
    "messages_conversation_same_org_user_fkey ties it to the conversation's customer, a member",
};

/** Tables whose rows change only their status: their references are tried on insert. */
const WRITTEN_ONCE = new Set(["payments", "property_viewings"]);

interface PersonRef {
  table: string;
  column: string;
  /** The composite key to org_members, when there is one. */
  member_fkey: string | null;
}

async function personRefs(db: Queryable): Promise<PersonRef[]> {
  return await db.query<PersonRef>(`
    select c.relname as table, a.attname as column,
      (select m.conname from pg_catalog.pg_constraint m
       where m.conrelid = k.conrelid and m.contype = 'f'
         and m.confrelid = 'public.org_members'::regclass
         and m.conkey = array[
           (select o.attnum from pg_catalog.pg_attribute o
            where o.attrelid = k.conrelid and o.attname = 'org_id'), a.attnum]::int2[]
         and m.confkey = array[
           (select o.attnum from pg_catalog.pg_attribute o
            where o.attrelid = m.confrelid and o.attname = 'org_id'),
           (select o.attnum from pg_catalog.pg_attribute o
            where o.attrelid = m.confrelid and o.attname = 'user_id')]::int2[]) as member_fkey
    from pg_catalog.pg_constraint k
    join pg_catalog.pg_class c on c.oid = k.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    where k.contype = 'f' and cardinality(k.conkey) = 1
      and k.confrelid in ('public.profiles'::regclass, 'auth.users'::regclass)
      and n.nspname = 'public' and c.relname <> 'org_members'
      and exists (select 1 from pg_catalog.pg_attribute o
                  where o.attrelid = k.conrelid and o.attname = 'org_id')
    order by 1, 2`);
}

/** The SQLSTATE and constraint a statement fails with, or "ok". */
async function outcome(db: TestDatabase, sql: string, params: unknown[]): Promise<string> {
  try {
    await db.transaction(async (tx) => {
      await tx.query(sql, params);
      throw new Error("ok");
    });
    return "unreachable";
  } catch (error) {
    const { code, constraint_name, constraint, message } = error as {
      code?: string;
      constraint_name?: string;
      constraint?: string;
      message: string;
    };
    if (!code) return message;
    return `${code} ${constraint_name ?? constraint ?? ""}`.trim();
  }
}

dbTest(
  "person refs: every person a row names has a membership key to the row's org",
  async (db) => {
    const refs = await personRefs(db);
    assert.ok(refs.length >= 20, `found only ${refs.length} person references`);
    const missing = refs.filter((ref) =>
      !ref.member_fkey && !(`${ref.table}.${ref.column}` in COVERED_OTHERWISE)
    );
    assert.deepEqual(missing, [], "add (org_id, person) → org_members (org_id, user_id)");
    for (const name of Object.keys(COVERED_OTHERWISE)) {
      assert.ok(
        refs.some((ref) => `${ref.table}.${ref.column}` === name && !ref.member_fkey),
        `${name} is no longer a person reference without a key of its own`,
      );
    }
  },
);

dbTest("person refs: no row of one org names a person of another", async (db) => {
  await seedTenantFixtures(db);
  const refs = (await personRefs(db)).filter((ref) => ref.member_fkey);
  // A message carries its conversation's customer (its own key): they go first, as this moves
  // conversations from one customer to another.
  await db.query("delete from public.messages where org_id = $1", [TENANT_A.org]);
  for (const ref of refs) {
    if (WRITTEN_ONCE.has(ref.table)) continue;
    // One of org A's rows, pointed at B's customer: refused by the schema, whoever writes.
    const pointAt = (person: string) =>
      outcome(
        db,
        `update public.${ref.table} set ${ref.column} = $2
         where ctid = (select ctid from public.${ref.table} where org_id = $1 limit 1)
         returning 1`,
        [TENANT_A.org, person],
      );
    assert.equal(await pointAt(TENANT_B.customer), `23503 ${ref.member_fkey}`, ref.table);
    // A member of the row's org is fine.
    assert.equal(await pointAt(TENANT_A.staff), "ok", `${ref.table}.${ref.column}`);
  }
  // A payment changes only its status after it is made: its people are checked on insert.
  const payment = (person: string) =>
    outcome(
      db,
      `insert into public.payments (org_id, created_by, payer_id, payer_phone, payee_phone,
                                    amount, momo_ref, expires_at)
       values ($1, $2, $2, '+250788000001', '+250788000004', 500, 'PROBE-P1',
               '2100-01-01T00:00:00Z')`,
      [TENANT_A.org, person],
    );
  assert.match(
    await payment(TENANT_B.customer),
    /^23503 payments_(created_by|payer_id)_member_fkey$/,
  );
  assert.equal(await payment(TENANT_A.customer), "ok");
  // A viewing keeps its renter and host (a trigger refuses a change; the host is the listing's
  // landlord, copied on insert): its renter is checked on insert.
  const viewing = (person: string) =>
    outcome(
      db,
      `insert into public.property_viewings
         (org_id, listing_id, renter_id, name, phone, starts_at, ends_at)
       values ($1, '70000000-0000-4000-8000-000000000001', $2, 'Probe', '+250788000001',
               '2100-01-04T08:00:00Z', '2100-01-04T08:30:00Z')`,
      [TENANT_A.org, person],
    );
  assert.equal(await viewing(TENANT_B.customer), "23503 property_viewings_renter_id_member_fkey");
  assert.equal(await viewing(TENANT_A.customer), "ok");
});

dbTest(
  "person refs: a ticket cannot be assigned to another tenant's staff",
  async (db, backend) => {
    await seedTenantFixtures(db);
    const insertTicket = `
    insert into public.staff_tickets (org_id, requester_user_id, channel, reason, summary, assigned_to)
    values ($1, $2, 'inbox', 'help', 'help', $3) returning id`;
    // The service and the connecting role bypass RLS; the schema still refuses.
    const asService = await db.asService((tx) =>
      tx.query(insertTicket, [TENANT_A.org, TENANT_A.customer, TENANT_B.staff])
    ).then(() => "ok", (error) => `${error.code} ${error.constraint_name ?? error.constraint}`);
    assert.equal(asService, "23503 staff_tickets_assigned_to_member_fkey", backend);
    assert.equal(
      await outcome(db, insertTicket, [TENANT_A.org, TENANT_A.customer, TENANT_B.staff]),
      "23503 staff_tickets_assigned_to_member_fkey",
    );
    // Staff may update their org's tickets (RLS), but not hand one to another org's staff.
    const reassigned = await db.asCaller(
      { sub: TENANT_A.staff, role: "authenticated" },
      (tx) =>
        tx.query("update public.staff_tickets set assigned_to = $2 where id = $1", [
          TENANT_A.ticket,
          TENANT_B.staff,
        ]),
    ).then(() => "ok", (error) => `${error.code} ${error.constraint_name ?? error.constraint}`);
    assert.equal(reassigned, "23503 staff_tickets_assigned_to_member_fkey");
    // Nor sign a note, or request a ticket, as someone of another org.
    assert.equal(
      await outcome(
        db,
        "insert into public.ticket_notes (ticket_id, org_id, author_id, body) values ($1, $2, $3, 'x')",
        [TENANT_A.ticket, TENANT_A.org, TENANT_B.staff],
      ),
      "23503 ticket_notes_author_id_member_fkey",
    );
    assert.equal(
      await outcome(db, insertTicket, [TENANT_A.org, TENANT_B.customer, null]),
      "23503 staff_tickets_requester_user_id_member_fkey",
    );
    // The org's own staff: fine.
    assert.equal(
      await outcome(db, insertTicket, [TENANT_A.org, TENANT_A.customer, TENANT_A.admin]),
      "ok",
    );
  },
);

dbTest(
  "person refs: leaving an org clears optional references and keeps required ones",
  async (db) => {
    await seedTenantFixtures(db);
    // Jean signed a note on A's ticket: the membership stays while the note does.
    assert.equal(
      await outcome(db, "delete from public.org_members where org_id = $1 and user_id = $2", [
        TENANT_A.org,
        TENANT_A.staff,
      ]),
      "23503 ticket_notes_author_id_member_fkey",
    );
    // Once the note is gone, Jean can leave: the ticket and the conversation are no longer his.
    await db.transaction(async (tx) => {
      await tx.query("delete from public.ticket_notes where author_id = $1", [TENANT_A.staff]);
      await tx.query("delete from public.org_members where org_id = $1 and user_id = $2", [
        TENANT_A.org,
        TENANT_A.staff,
      ]);
    });
    const [left] = await db.query<{ assigned_to: string | null; assigned_staff_id: string | null }>(
      `select t.assigned_to, c.assigned_staff_id from public.staff_tickets t
     join public.conversations c on c.id = t.convo_id where t.id = $1`,
      [TENANT_A.ticket],
    );
    assert.deepEqual(left, { assigned_to: null, assigned_staff_id: null });
  },
);

dbTest("person refs: an org and a person can still be deleted with all their rows", async (db) => {
  await seedTenantFixtures(db);
  // People go with their rows: Jean's notes, his tickets and conversations are unassigned.
  await db.query("delete from auth.users where id = $1", [TENANT_A.staff]);
  const [ticket] = await db.query<{ assigned_to: string | null; notes: number }>(
    `select assigned_to, (select count(*)::int from public.ticket_notes n where n.ticket_id = t.id)
       as notes
     from public.staff_tickets t where id = $1`,
    [TENANT_A.ticket],
  );
  assert.deepEqual(ticket, { assigned_to: null, notes: 0 });
  // Beaver's vendor owned its warehouse.
  await db.query("delete from auth.users where id = $1", [TENANT_B.vendor]);
  const [warehouse] = await db.query<{ owner_user_id: string | null }>(
    "select owner_user_id from public.businesses where id = $1",
    [TENANT_B.business],
  );
  assert.equal(warehouse.owner_user_id, null);

  // An org goes with its members and every row naming them. (The fixtures' orgs keep
  // tariffs in effect, which are never deleted: this one has none.)
  const org = "c1000000-0000-4000-8000-000000000003";
  const [customer, staff] = [TENANT_B.customer, TENANT_B.staff];
  await db.transaction(async (tx) => {
    await tx.query("insert into public.orgs (id, slug, name) values ($1, 'cedar', 'Cedar')", [org]);
    await tx.query(
      `insert into public.org_members (org_id, user_id, role)
       values ($1, $2, 'customer'), ($1, $3, 'staff')`,
      [org, customer, staff],
    );
    await tx.exec(`
      insert into public.conversations (id, org_id, user_id, assigned_staff_id)
      values ('c1000000-0000-4000-8000-0000000000c1', '${org}', '${customer}', '${staff}');
      insert into public.staff_tickets (id, org_id, convo_id, requester_user_id, channel, reason,
                                        summary, assigned_to)
      values ('c1000000-0000-4000-8000-0000000000c2', '${org}',
              'c1000000-0000-4000-8000-0000000000c1', '${customer}', 'inbox', 'r', 's', '${staff}');
      insert into public.ticket_notes (ticket_id, org_id, author_id, body)
      values ('c1000000-0000-4000-8000-0000000000c2', '${org}', '${staff}', 'n');
      insert into public.businesses (id, org_id, owner_user_id, name, category)
      values ('c1000000-0000-4000-8000-0000000000c3', '${org}', '${staff}', 'Cedar Shop', 'shop');
      insert into public.orders (org_id, business_id, customer_id, total)
      values ('${org}', 'c1000000-0000-4000-8000-0000000000c3', '${customer}', 100);
      insert into public.payments (org_id, created_by, payer_id, payer_phone, payee_phone, amount,
                                   momo_ref, expires_at)
      values ('${org}', '${customer}', '${customer}', '+250788000011', '+250788000010', 100,
              'CEDAR-1', '2100-01-01T00:00:00Z');
      insert into public.ride_requests (org_id, rider_id, vehicle_type, pickup_lat, pickup_lng,
                                        dest_lat, dest_lng, expires_at)
      values ('${org}', '${customer}', 'moto', -1.95, 30.06, -1.96, 30.1, '2100-01-01T00:00:00Z');
    `);
  });
  await db.query("delete from public.orgs where id = $1", [org]);
  const [{ n }] = await db.query<{ n: number }>(
    `select (select count(*) from public.org_members where org_id = $1)
          + (select count(*) from public.staff_tickets where org_id = $1)
          + (select count(*) from public.orders where org_id = $1)
          + (select count(*) from public.payments where org_id = $1) as n`,
    [org],
  );
  assert.equal(Number(n), 0);
});
