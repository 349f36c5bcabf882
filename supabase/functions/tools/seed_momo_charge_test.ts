/**
 * Seed 000's own `momo_charge` tests ("Testing Tools"), pasted unchanged
 * below the binding, run against the real `tools` function over HTTP on
 * loopback, on PGlite and Postgres. The binding is what a client of the
 * seed's contract does: it signs in as an EasyMO customer (identity comes
 * from the token, so the seed's `org_id`/`user_id` attribute nothing),
 * sends the seed's `trace_id` as the call's trace and its `idempotency_key`
 * as the request's key, and, since a charge asks for money, confirms the
 * read-back as the user would and sends the call again with the token.
 * Before the seed's block, the same endpoint for a tenant with no account.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { seedSpec } from "@testing/seed_spec.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { ORG, USER } from "@testing/seed.ts";
import { createToolsApp } from "./app.ts";

interface Binding {
  call(tool: string, args: Record<string, unknown>): Promise<TestData>;
}

let binding: Binding | null = null;

const { describe, it, expect } = seedSpec({
  async around(db, run) {
    const rt = await createTestRuntime(db);
    const app = createToolsApp(rt);
    const server = serveFunction("tools", (request) => app.fetch(request));
    const token = await rt.tokenFor(USER.aline);
    binding = {
      async call(tool, args) {
        const send = async (confirmation?: string) => {
          const response = await fetch(server.url, {
            method: "POST",
            headers: {
              authorization: `Bearer ${token}`,
              "idempotency-key": String(args.idempotency_key),
            },
            body: JSON.stringify({ tool, args, trace_id: args.trace_id, confirmation }),
          });
          const body = await response.json();
          // The seed's trace_id is the call's trace, whatever the outcome.
          assert.equal(response.headers.get("x-trace-id"), args.trace_id);
          return body;
        };
        const asked = await send();
        if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
        // The read-back names who is paid: with no order, ride or payee, the tenant itself.
        assert.match(asked.error.confirmation.summary, /^Pay 1,000 RWF to EasyMO /);
        return await send(asked.error.confirmation.token);
      },
    };
    try {
      await run();
    } finally {
      binding = null;
      await server.close();
    }
  },
});

// The seed's name for the tool, as its tests call it.
function momo_charge(args: Record<string, unknown>): Promise<TestData> {
  return binding!.call("momo_charge", args);
}

dbTest(
  "tools function: a charge naming no payee, where the tenant has no merchant account, is 400 saying so",
  async (db) => {
    await db.query("update public.orgs set momo_merchant_code = null where id = $1", [ORG.easymo]);
    const rt = await createTestRuntime(db);
    const app = createToolsApp(rt);
    const server = serveFunction("tools", (request) => app.fetch(request));
    try {
      const token = await rt.tokenFor(USER.aline);
      const send = (confirmation?: string) =>
        fetch(server.url, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "idempotency-key": "no-account" },
          body: JSON.stringify({
            tool: "momo_charge",
            args: { amount: 1000, currency: "RWF", memo: "Test payment", idempotency_key: "x1" },
            confirmation,
          }),
        });
      const asked = await (await send()).json();
      const response = await send(asked.error.confirmation.token);
      const body = await response.json();
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(body.error.code, "VALIDATION_ERROR");
      assert.equal(body.error.fields[0].path, "payee_phone");
      assert.match(body.error.fields[0].message, /^EasyMO has no MoMo merchant account set up/);
    } finally {
      await server.close();
    }
  },
);

// The seed's `params`: its first test's call.
const params = {
  amount: 1000,
  currency: "RWF",
  phone: "+250788123456",
  memo: "Test payment",
  idempotency_key: "test-123",
  trace_id: "trace-123",
  org_id: "org-123",
  user_id: "user-123",
};

// Seed 000, "Testing Tools", unchanged:
describe("momo_charge", () => {
  it("should create payment link", async () => {
    const result = await momo_charge({
      amount: 1000,
      currency: "RWF",
      phone: "+250788123456",
      memo: "Test payment",
      idempotency_key: "test-123",
      trace_id: "trace-123",
      org_id: "org-123",
      user_id: "user-123",
    });

    expect(result.ok).toBe(true);
    expect(result.data.payment_link).toBeDefined();
    expect(result.data.momo_ref).toBeDefined();
  });

  it("should handle idempotency", async () => {
    const key = "duplicate-123";
    const result1 = await momo_charge({ ...params, idempotency_key: key });
    const result2 = await momo_charge({ ...params, idempotency_key: key });

    expect(result1.data.momo_ref).toBe(result2.data.momo_ref);
  });

  it("should reject invalid phone", async () => {
    const result = await momo_charge({
      ...params,
      phone: "invalid",
    });

    expect(result.ok).toBe(false);
    expect(result.error.code).toBe("VALIDATION_ERROR");
  });
});
