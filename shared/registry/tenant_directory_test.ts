import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG } from "@testing/seed.ts";
import type { Queryable } from "@shared/db/types.ts";
import { TenantDirectory } from "./tenant_policy.ts";

const NEW_NUMBER = "100000000000077";

dbTest(
  "TenantDirectory.fresh() reads the tenants again only once its load is older than maxAgeMs, by its clock",
  async (db) => {
    let now = 1_000_000;
    const tenants = new TenantDirectory({ source: db, maxAgeMs: 5_000, now: () => now });
    await tenants.fresh();
    assert.equal(tenants.get(ORG.beaver)?.profile?.brand, "Beaver's Choice");
    assert.equal(tenants.byPhoneNumberId(NEW_NUMBER), undefined);

    await db.query(
      `insert into public.tenant_whatsapp_numbers
         (phone_number_id, org_id, token_secret_name, app_secret_name)
       values ($1, $2, 'WHATSAPP_TOKEN_NEW', 'WHATSAPP_APP_SECRET_NEW')`,
      [NEW_NUMBER, ORG.beaver],
    );
    await db.query("update public.orgs set brand_name = 'Beaver Books' where id = $1", [
      ORG.beaver,
    ]);
    // Within the age: what was loaded stands.
    now += 4_999;
    await tenants.fresh();
    assert.equal(tenants.byPhoneNumberId(NEW_NUMBER), undefined);
    assert.equal(tenants.get(ORG.beaver)?.profile?.brand, "Beaver's Choice");
    // At the age: read again, the number and the brand are current.
    now += 1;
    await tenants.fresh();
    assert.equal(tenants.byPhoneNumberId(NEW_NUMBER)?.orgId, ORG.beaver);
    assert.equal(tenants.get(ORG.beaver)?.profile?.brand, "Beaver Books");

    // A number removed is gone after the next load, not kept.
    await db.query("delete from public.tenant_whatsapp_numbers where phone_number_id = $1", [
      NEW_NUMBER,
    ]);
    now += 5_000;
    await tenants.fresh();
    assert.equal(tenants.byPhoneNumberId(NEW_NUMBER), undefined);
    assert.equal(tenants.numbers(ORG.easymo).length, 1);
  },
);

dbTest(
  "TenantDirectory.fresh() shares one load, and a failed load keeps the tenants it had",
  async (db) => {
    let now = 0;
    let queries = 0;
    let failing = false;
    // The real database, behind a switch that makes it unreachable.
    const source: Queryable = {
      query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
        queries++;
        if (failing) return Promise.reject(new Error("connection refused"));
        return db.query<T>(sql, params);
      },
    };
    const errors: unknown[] = [];
    const tenants = new TenantDirectory({
      source,
      maxAgeMs: 1_000,
      now: () => now,
      onLoadFailed: (error) => errors.push(error),
    });
    await Promise.all([tenants.fresh(), tenants.fresh(), tenants.fresh()]);
    assert.equal(queries, 2, "one load: orgs and numbers");
    assert.equal(tenants.bySlug("easymo")?.id, ORG.easymo);

    failing = true;
    now = 1_000;
    await tenants.fresh();
    assert.equal(errors.length, 1);
    assert.equal(tenants.bySlug("easymo")?.id, ORG.easymo, "the tenants loaded before serve");
    // Not tried again until a full age later: a database that is down is not hammered.
    const tried = queries;
    now = 1_500;
    await tenants.fresh();
    assert.equal(queries, tried);
    failing = false;
    now = 2_000;
    await tenants.fresh();
    assert.equal(queries, tried + 2);
    // Without a source it never loads, and a negative age is refused.
    await new TenantDirectory().fresh();
    assert.throws(() => new TenantDirectory({ maxAgeMs: -1 }), RangeError);
  },
);
