/**
 * A tenant's own MoMo merchant account: the rules (`merchantPayee`), the
 * columns' checks on PGlite and Postgres, who may change it, and the check at
 * start that names the tenant and the column.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { checkMerchantAccounts, merchantPayee } from "./merchant_account.ts";

const account = (code: string | null, phone: string | null) => ({
  slug: "beaver-paper",
  momo_merchant_code: code,
  momo_merchant_phone: phone,
});

Deno.test("merchantPayee() reads a merchant code or an MTN/Airtel number", () => {
  assert.deepEqual(merchantPayee(account("300400", null)), {
    kind: "merchant",
    merchantCode: "300400",
  });
  assert.deepEqual(merchantPayee(account("1234", null)), {
    kind: "merchant",
    merchantCode: "1234",
  });
  for (const phone of ["+250788300500", "250788300500", "0788300500", "0722123456", "0731234567"]) {
    assert.deepEqual(merchantPayee(account(null, phone)), {
      kind: "phone",
      phone: `+250${phone.slice(-9)}`,
    }, phone);
  }
  assert.equal(merchantPayee(account(null, null)), null);
});

Deno.test("merchantPayee() refuses a malformed account naming the tenant and the column", () => {
  const refused: Array<[string | null, string | null, string]> = [
    ["123", null, "momo_merchant_code"],
    ["12345678901", null, "momo_merchant_code"],
    ["12-456", null, "momo_merchant_code"],
    ["", null, "momo_merchant_code"],
    // 075 is no Mobile Money network; a landline; not Rwandan at all.
    [null, "+250751234567", "momo_merchant_phone"],
    [null, "+250252123456", "momo_merchant_phone"],
    [null, "+14155550100", "momo_merchant_phone"],
    ["300400", "+250788300500", "momo_merchant_phone"],
  ];
  for (const [code, phone, column] of refused) {
    assert.throws(
      () => merchantPayee(account(code, phone)),
      (error: Error) =>
        error instanceof RangeError &&
        error.message.startsWith(
          `Cannot use the MoMo merchant account of tenant "beaver-paper" as orgs.${column} must be`,
        ),
      JSON.stringify([code, phone]),
    );
  }
});

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

dbTest(
  "orgs keep one well-formed MoMo merchant account, written by the service only",
  async (db) => {
    // Both seeded tenants have one, so neither is reported as missing.
    assert.deepEqual(await checkMerchantAccounts(db), []);
    const set = (code: string | null, phone: string | null) =>
      db.query(
        "update public.orgs set momo_merchant_code = $2, momo_merchant_phone = $3 where id = $1",
        [ORG.beaver, code, phone],
      );
    for (
      const [code, phone] of [["123", null], ["12a456", null], [null, "0788300500"], [
        null,
        "+250751234567",
      ], ["300400", "+250788300500"]]
    ) {
      assert.equal(await sqlState(set(code, phone)), "23514", JSON.stringify([code, phone]));
    }
    assert.equal(await sqlState(set("5678", null)), "ok");
    assert.equal(await sqlState(set(null, null)), "ok");
    assert.deepEqual(await checkMerchantAccounts(db), ["beaver-paper"]);

    // Not even a tenant's own admin or staff can redirect its customers' payments.
    for (const user of [USER.grace, USER.jean, USER.aline]) {
      await sqlState(db.asCaller(
        { sub: user, role: "authenticated" },
        (tx) =>
          tx.query("update public.orgs set momo_merchant_code = '999999' where id = $1", [
            ORG.easymo,
          ]),
      ));
    }
    const [easymo] = await db.query<{ momo_merchant_code: string }>(
      "select momo_merchant_code from public.orgs where id = $1",
      [ORG.easymo],
    );
    assert.equal(easymo.momo_merchant_code, "300400");
  },
);

dbTest(
  "the platform's start names a tenant without an account, and stops on a malformed one",
  async (db) => {
    await db.query("update public.orgs set momo_merchant_phone = null where id = $1", [
      ORG.beaver,
    ]);
    const rt = await createTestRuntime(db);
    const notes = rt.log.lines.filter((line) => line.event === "momo_merchant_account_missing");
    assert.deepEqual(notes.map((line) => line.tenant), ["beaver-paper"]);

    // A database the columns' checks never reached (restored without constraints, say).
    await db.exec("alter table public.orgs drop constraint orgs_momo_merchant_code_check");
    await db.query("update public.orgs set momo_merchant_code = '12 34' where id = $1", [
      ORG.beaver,
    ]);
    await assert.rejects(
      () => createTestRuntime(db),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          'Cannot use the MoMo merchant account of tenant "beaver-paper" as orgs.momo_merchant_code ' +
            'must be a MoMoPay merchant code of 4 to 10 digits: current value is "12 34"',
    );
  },
);
