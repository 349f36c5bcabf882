/**
 * `case_intake` on PGlite and Postgres: a case filed with its reference from
 * the org's counter (the year from the injected clock), its documents and its
 * staff ticket; bad input named by field; a replay returns the same case; a
 * client reads only their own cases and another tenant none; cases filed at
 * once never share a reference.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { Queryable } from "@shared/db/types.ts";
import { sweepExpiredFiles } from "@shared/storage/retention_sweep.ts";
import { startTestStorage } from "@testing/storage.ts";

const FILED_AT = new Date("2026-12-31T22:30:00Z"); // 00:30 on 1 January 2027 in Kigali
const CONVO = "c7000000-0000-4000-8000-000000000001";
const PHOTO = `${ORG.easymo}/${CONVO}/wamid.HBgLEGAL.jpg`;

const CASE = {
  category: "land",
  summary: "My neighbour built a wall on my plot in Kicukiro last month.",
  docs: [`storage://media/${PHOTO}`],
  client_name: "Aline Uwase",
  client_phone: "+250788000001",
  language: "fr",
};

/** Aline's WhatsApp conversation and a photo she sent in it, as the channel stores them. */
async function alinePhoto(db: Queryable): Promise<void> {
  await db.query(
    `insert into public.conversations (id, org_id, user_id) values ($1, $2, $3)`,
    [CONVO, ORG.easymo, USER.aline],
  );
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata)
     values ('media', $1, '{"mimetype": "image/jpeg", "size": 1024}'::jsonb)`,
    [PHOTO],
  );
}

/** Files `args` as `user`, confirming the read-back as the agent would. */
async function file(
  rt: TestRuntime,
  user: string,
  args: unknown,
  options: { key: string; org?: string },
): Promise<TestData> {
  const asked = await rt.callAs(user, "case_intake", args, {
    idempotencyKey: options.key,
    org: options.org,
  });
  if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
  return await rt.callAs(user, "case_intake", args, {
    idempotencyKey: options.key,
    confirmation: asked.error.confirmation.token,
    org: options.org,
  });
}

dbTest(
  "case_intake() files a case with a reference, its documents and a staff ticket",
  async (db) => {
    await alinePhoto(db);
    // An org that charges nothing (the seed's EasyMO charges a fee: see the next test).
    await db.query("delete from public.legal_intake_settings where org_id = $1", [ORG.easymo]);
    const rt = await createTestRuntime(db, { now: () => FILED_AT });
    const asked = await rt.callAs(USER.aline, "case_intake", CASE, { idempotencyKey: "k1" });
    assert.equal(asked.ok, false);
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
    // The read-back is in the client's language and names what is filed.
    assert.match(asked.error.confirmation.summary, /Enregistrer une affaire \(Foncier/);
    assert.match(asked.error.confirmation.summary, /avec 1 document/);
    const [{ n: before }] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.legal_cases",
    );
    assert.equal(before, 0, "nothing is filed before the confirmation");

    const result = await file(rt, USER.aline, CASE, { key: "k1" });
    assert.ok(result.ok, JSON.stringify(result));
    // The year is Kigali's on the injected clock: already 2027 there.
    assert.equal(result.data.reference_number, "LC-2027-000001");
    assert.equal(result.data.filed_at, FILED_AT.toISOString());
    assert.equal(result.data.language, "fr");
    assert.deepEqual(result.data.documents, [{ bucket: "media", path: PHOTO }]);
    assert.equal(result.data.consultation_fee, null);

    const [stored] = await db.query<TestData>(
      `select c.org_id, c.client_id, c.category, c.status, c.client_name, c.client_phone,
            (select array_agg(d.path order by d.position) from public.legal_case_documents d
             where d.case_id = c.id) as docs
     from public.legal_cases c where c.id = $1`,
      [result.data.case_id],
    );
    assert.deepEqual(stored, {
      org_id: ORG.easymo,
      client_id: USER.aline,
      category: "land",
      status: "new",
      client_name: "Aline Uwase",
      client_phone: "+250788000001",
      docs: [PHOTO],
    });
    // The ticket waits in the Admin Inbox, naming the case.
    const [ticket] = await db.query<TestData>(
      `select reason, status, channel, legal_case_id, requester_user_id, language, summary
     from public.staff_tickets where id = $1`,
      [result.data.ticket_id],
    );
    assert.equal(ticket.reason, "Legal case LC-2027-000001 (land) to review");
    assert.equal(ticket.status, "open");
    assert.equal(ticket.channel, "inbox");
    assert.equal(ticket.legal_case_id, result.data.case_id);
    assert.equal(ticket.requester_user_id, USER.aline);
    assert.equal(ticket.language, "fr");
    assert.match(ticket.summary, /My neighbour built a wall/);
  },
);

dbTest("case_intake() answers the org's consultation fee and who is paid", async (db) => {
  await db.query(
    `insert into public.legal_intake_settings (org_id, consultation_fee_rwf, payee_phone, payee_name)
     values ($1, 10000, '+250788000002', 'Me Kalisa')
     on conflict (org_id) do update set consultation_fee_rwf = excluded.consultation_fee_rwf,
       payee_phone = excluded.payee_phone, payee_name = excluded.payee_name`,
    [ORG.easymo],
  );
  const rt = await createTestRuntime(db, { now: () => FILED_AT });
  const result = await file(rt, USER.aline, { ...CASE, docs: [] }, { key: "fee" });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.data.consultation_fee, {
    amount: 10000,
    currency: "RWF",
    payee_phone: "+250788000002",
    payee_name: "Me Kalisa",
  });
});

dbTest("case_intake() names the field of bad input", async (db) => {
  const rt = await createTestRuntime(db, { now: () => FILED_AT });
  const cases: Array<[unknown, string, string]> = [
    [{ ...CASE, category: "astrology" }, "category", "VALIDATION_ERROR"],
    [{ ...CASE, summary: "help" }, "summary", "VALIDATION_ERROR"],
    [{ ...CASE, client_phone: "hello" }, "client_phone", "VALIDATION_ERROR"],
    [{ ...CASE, docs: ["https://example.com/x.jpg"] }, "docs[0]", "VALIDATION_ERROR"],
    // Another org's folder is not the caller's to attach.
    [{ ...CASE, docs: [`storage://media/${ORG.beaver}/c/x.jpg`] }, "docs[0]", "VALIDATION_ERROR"],
    // A file that does not exist (or is another client's) answers alike.
    [
      { ...CASE, docs: [`storage://media/${ORG.easymo}/${CONVO}/none.jpg`] },
      "docs[0]",
      "NOT_FOUND",
    ],
  ];
  for (const [args, path, code] of cases) {
    const result = await file(rt, USER.aline, args, {
      key: `bad-${path}-${code}-${JSON.stringify(args).length}`,
    });
    assert.equal(result.ok, false, path);
    assert.equal(result.error.code, code, `${path}: ${JSON.stringify(result.error)}`);
    assert.ok(
      result.error.fields?.some((field: TestData) => field.path === path),
      `${path}: ${JSON.stringify(result.error.fields)}`,
    );
  }
  const missing = await file(rt, USER.aline, { summary: CASE.summary }, { key: "missing" });
  assert.equal(missing.error.code, "VALIDATION_ERROR");
  const paths = missing.error.fields.map((field: TestData) => field.path).sort();
  assert.deepEqual(paths, ["category", "client_name", "client_phone"]);
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.legal_cases",
  );
  assert.equal(n, 0);
});

dbTest("case_intake() replays the same case for the same key", async (db) => {
  const rt = await createTestRuntime(db, { now: () => FILED_AT });
  const args = { ...CASE, docs: [] };
  const first = await file(rt, USER.aline, args, { key: "once" });
  const again = await file(rt, USER.aline, args, { key: "once" });
  assert.ok(first.ok && again.ok);
  assert.deepEqual(again.data, first.data);
  const [{ cases, tickets }] = await db.query<{ cases: number; tickets: number }>(
    `select (select count(*)::int from public.legal_cases) as cases,
            (select count(*)::int from public.staff_tickets where legal_case_id is not null) as tickets`,
  );
  assert.deepEqual({ cases, tickets }, { cases: 1, tickets: 1 });
  // Another key files another case, with the next number.
  const next = await file(rt, USER.aline, args, { key: "twice" });
  assert.equal(next.data.reference_number, "LC-2027-000002");
});

dbTest("legal cases: a client reads only their own; another tenant none", async (db) => {
  const rt = await createTestRuntime(db, { now: () => FILED_AT });
  // Another tenant that takes cases too (Beaver's seeded policy does not enable them).
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["case_intake"]);
  const aline = await file(rt, USER.aline, { ...CASE, docs: [] }, { key: "a" });
  const nina = await file(rt, USER.nina, { ...CASE, docs: [], client_name: "Nina" }, {
    key: "n",
    org: ORG.beaver,
  });
  assert.ok(aline.ok && nina.ok, JSON.stringify([aline, nina]));
  // Numbers are per org: each tenant's first case of the year is 000001.
  assert.equal(aline.data.reference_number, "LC-2027-000001");
  assert.equal(nina.data.reference_number, "LC-2027-000001");

  const visible = async (user: string) =>
    (await db.asCaller(
      { sub: user, role: "authenticated" },
      (tx) => tx.query<{ id: string }>("select id from public.legal_cases order by id"),
    )).map((row) => row.id);
  assert.deepEqual(await visible(USER.aline), [aline.data.case_id]);
  assert.deepEqual(await visible(USER.eric), [], "another client of the org sees none");
  assert.deepEqual(await visible(USER.jean), [aline.data.case_id], "staff see their org's");
  assert.deepEqual(await visible(USER.paul), [nina.data.case_id], "the other tenant's only");

  // Nor can anyone file in another client's name, or edit what was filed.
  const forged = await sqlState(
    db.asCaller({ sub: USER.eric, role: "authenticated" }, (tx) =>
      tx.query(
        `insert into public.legal_cases (org_id, client_id, category, summary, client_name, client_phone)
       values ($1, $2, 'land', 'A case in somebody else''s name.', 'Aline', '+250788000001')`,
        [ORG.easymo, USER.aline],
      )),
  );
  assert.equal(forged, "42501");
  const edited = await sqlState(
    db.asCaller(
      { sub: USER.aline, role: "authenticated" },
      (tx) =>
        tx.query("update public.legal_cases set summary = 'changed after filing' where id = $1", [
          aline.data.case_id,
        ]),
    ),
  );
  assert.equal(edited, "42501");
  // A reference a writer chose is replaced by the counter's.
  const [chosen] = await db.asCaller(
    { sub: USER.aline, role: "authenticated" },
    (tx) =>
      tx.query<{ reference_number: string }>(
        `insert into public.legal_cases
         (org_id, client_id, category, summary, client_name, client_phone, reference_number,
          created_at)
       values ($1, $2, 'debt', 'He owes me money since June.', 'Aline', '+250788000001',
               'LC-2027-999999', $3)
       returning reference_number`,
        [ORG.easymo, USER.aline, FILED_AT.toISOString()],
      ),
  );
  assert.equal(chosen.reference_number, "LC-2027-000002");
  // The read-back of another tenant's call never reaches it: Aline is no member of Beaver.
  const outsider = await file(rt, USER.aline, { ...CASE, docs: [] }, { key: "x", org: ORG.beaver });
  assert.equal(outsider.ok, false);
  assert.equal(outsider.error.code, "AUTH_ERROR");
});

dbTest("case_intake() never gives two cases filed at once the same reference", async (db) => {
  const rt = await createTestRuntime(db, { now: () => FILED_AT });
  const args = { ...CASE, docs: [] };
  // Four members at once, three cases each (one person files at most ten an hour).
  const people = [USER.aline, USER.eric, USER.jean, USER.grace];
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) => file(rt, people[i % 4], args, { key: `c${i}` })),
  );
  for (const result of results) assert.ok(result.ok, JSON.stringify(result));
  const refs = results.map((result) => result.data.reference_number).sort();
  assert.deepEqual(
    refs,
    Array.from({ length: 12 }, (_, i) => `LC-2027-${String(i + 1).padStart(6, "0")}`),
  );
  // A new year starts its own count.
  const later = await createTestRuntime(db, { now: () => new Date("2028-03-01T08:00:00Z") });
  const next = await file(later, USER.aline, args, { key: "2028" });
  assert.equal(next.data.reference_number, "LC-2028-000001");
});

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

dbTest("a filed case's documents outlive the media bucket's retention", async (db) => {
  const storage = await startTestStorage(db);
  try {
    await db.query(
      `insert into public.conversations (id, org_id, user_id) values ($1, $2, $3)`,
      [CONVO, ORG.easymo, USER.aline],
    );
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    const other = `${ORG.easymo}/${CONVO}/wamid.HBgOTHER.jpg`;
    for (const path of [PHOTO, other]) {
      await storage.files.upload({ bucket: "media", path, bytes, contentType: "image/jpeg" });
    }
    const rt = await createTestRuntime(db, { now: () => FILED_AT });
    const filed = await file(rt, USER.aline, CASE, { key: "kept" });
    assert.ok(filed.ok, JSON.stringify(filed));
    // Both photos are 60 days old: past the media bucket's 30.
    await db.query(
      "update storage.objects set created_at = now() - interval '60 days' where bucket_id = 'media'",
    );
    assert.equal(await sweepExpiredFiles({ db, files: storage.files }), 1);
    const left = await db.query<{ name: string }>(
      "select name from storage.objects where bucket_id = 'media' order by name",
    );
    assert.deepEqual(left.map((row) => row.name), [PHOTO], "the case's photo is kept");
    // Once the case is gone, its photo is the sweep's like any other.
    await db.query("delete from public.legal_cases where id = $1", [filed.data.case_id]);
    assert.equal(await sweepExpiredFiles({ db, files: storage.files }), 1);
  } finally {
    await storage.close();
  }
});
