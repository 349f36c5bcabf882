/**
 * `payment_confirm_by_staff` runs as the calling staff member (`auth:
 * "staff"`), on both databases: the confirmation and the parties' messages
 * are written under the caller's RLS, a customer or another org's staff is
 * refused with AUTH_ERROR before anything is read, and the wa_outbox policy
 * that lets staff queue messages keeps them to their own org's contacts.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { charge } from "@testing/payments.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

function outboxTo(db: TestDatabase, waId: string) {
  return db.query<{ org_id: string; body: { text: { body: string } } }>(
    "select org_id, body from public.wa_outbox where to_wa_id = $1 order by created_at",
    [waId],
  );
}

dbTest(
  "staff confirm a charge as themselves: settled, and the payer and the payee told once",
  async (db) => {
    const rt = await createTestRuntime(db);
    try {
      const tool = rt.platform.get("payment_confirm_by_staff");
      assert.equal(tool?.auth, "staff");
      const { data } = await charge(rt, {
        amount: 5000,
        payee_phone: "0788123456",
        memo: "Rent",
        language: "en",
      });
      const confirm = (user: string, org: string = ORG.easymo, key = crypto.randomUUID()) =>
        rt.callAs(user, "payment_confirm_by_staff", { momo_ref: data.momo_ref }, {
          org,
          idempotencyKey: key,
        });
      // A customer of the org, and Beaver's staff calling into EasyMO: refused, nothing read.
      for (const user of [USER.aline, USER.eric, USER.paul]) {
        const refused = await confirm(user);
        assert.equal(refused.error?.code, "AUTH_ERROR", user);
      }
      // Beaver's staff in their own org: no such payment there.
      assert.equal((await confirm(USER.paul, ORG.beaver)).error?.code, "NOT_FOUND");
      const [pending] = await db.query<{ status: string }>(
        "select status from public.payments where momo_ref = $1",
        [data.momo_ref],
      );
      assert.equal(pending.status, "pending");
      assert.deepEqual(await outboxTo(db, "250788123456"), []);

      const confirmed = await confirm(USER.jean);
      assert.deepEqual(confirmed, {
        ok: true,
        data: { momo_ref: data.momo_ref, status: "settled" },
      });
      const [row] = await db.query<{ settled_by: string; settled_by_user_id: string }>(
        "select settled_by, settled_by_user_id from public.payments where momo_ref = $1",
        [data.momo_ref],
      );
      assert.deepEqual(row, { settled_by: "staff", settled_by_user_id: USER.jean });
      // The payer (Aline) and the payee, each once, under the org's number.
      const payer = await outboxTo(db, "250788000001");
      assert.equal(payer.length, 1);
      assert.equal(payer[0].org_id, ORG.easymo);
      assert.match(payer[0].body.text.body, /5,000 RWF/);
      const payee = await outboxTo(db, "250788123456");
      assert.equal(payee.length, 1);
      assert.equal(payee[0].org_id, ORG.easymo);
      // Another staff member confirming again changes nothing and tells nobody twice.
      const again = await confirm(USER.grace);
      assert.equal(again.data.status, "settled");
      assert.equal((await outboxTo(db, "250788000001")).length, 1);
      assert.equal((await outboxTo(db, "250788123456")).length, 1);
    } finally {
      await rt.platform.close();
    }
  },
);

dbTest("staff queue WhatsApp messages for their own org's contacts only", async (db) => {
  const rt = await createTestRuntime(db);
  try {
    // Aline's charge makes her (the payer) and 0788123456 (the payee) EasyMO's contacts.
    await charge(rt, { amount: 1000, payee_phone: "0788123456", language: "en" });
    let n = 0;
    const enqueue = (claims: JwtClaims, org: string, to: string, extra = "") =>
      db.asCaller(claims, (tx) =>
        tx.query(
          `insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key${
            extra ? ", status" : ""
          })
           values ($1, $2, 'text', '{"type": "text", "text": {"body": "hi"}}', $3${
            extra ? ", $4" : ""
          })`,
          [org, to, `policy-test-${++n}`, ...(extra ? [extra] : [])],
        )).then(() => "queued", (error: { code?: string }) => `refused ${error.code}`);
    // The org's staff, to its payer and payee.
    assert.equal(await enqueue(as(USER.jean), ORG.easymo, "250788000001"), "queued");
    assert.equal(await enqueue(as(USER.jean), ORG.easymo, "250788123456"), "queued");
    // Under another org's number, whoever the recipient.
    assert.equal(await enqueue(as(USER.jean), ORG.beaver, "250788000011"), "refused 42501");
    assert.equal(await enqueue(as(USER.paul), ORG.easymo, "250788000001"), "refused 42501");
    // To someone who is not the org's contact (Beaver's customer, a stranger).
    assert.equal(await enqueue(as(USER.jean), ORG.easymo, "250788000011"), "refused 42501");
    assert.equal(await enqueue(as(USER.jean), ORG.easymo, "250788999999"), "refused 42501");
    // A customer, a vendor and an anonymous caller queue nothing.
    assert.equal(await enqueue(as(USER.aline), ORG.easymo, "250788123456"), "refused 42501");
    assert.equal(await enqueue(as(USER.eric), ORG.easymo, "250788000001"), "refused 42501");
    assert.equal(await enqueue({ role: "anon" }, ORG.easymo, "250788000001"), "refused 42501");
    // The delivery record is the sender's: staff cannot queue a row as already sent.
    assert.equal(
      await enqueue(as(USER.jean), ORG.easymo, "250788000001", "sent"),
      "refused 42501",
    );
    const rows = await db.query<{ org_id: string; to_wa_id: string; status: string }>(
      "select org_id, to_wa_id, status from public.wa_outbox where idempotency_key like 'policy-test-%' order by to_wa_id",
    );
    assert.deepEqual(rows, [
      { org_id: ORG.easymo, to_wa_id: "250788000001", status: "queued" },
      { org_id: ORG.easymo, to_wa_id: "250788123456", status: "queued" },
    ]);
    // Whether a number is another org's contact is nobody else's business.
    const [asked] = await db.asCaller(
      as(USER.paul),
      (tx) =>
        tx.query<{ contact: boolean }>(
          "select private.may_message_contact($1, '250788000001') as contact",
          [ORG.easymo],
        ),
    );
    assert.equal(asked.contact, false);
  } finally {
    await rt.platform.close();
  }
});
