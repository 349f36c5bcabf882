/**
 * `/payments/forwarders` over real HTTP on PGlite and Postgres: the operator
 * and an org's staff register, list, rotate and revoke the org's forwarders;
 * the secret shown once is the one that posts; nobody else gets in.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { charge } from "@testing/payments.ts";
import { signForwarded } from "@shared/packs/payments/forwarder_auth.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createPaymentsApp } from "./app.ts";

function served(rt: TestRuntime) {
  const app = createPaymentsApp(rt);
  return serveFunction("payments", (request) => app.fetch(request));
}

async function call(
  url: string,
  options: { token?: string; method?: string; body?: unknown } = {},
): Promise<{ status: number; json: TestData }> {
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: {
      "content-type": "application/json",
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, json: await response.json() };
}

async function forwardSms(url: string, deviceId: string, secret: string, text: string) {
  const body = new TextEncoder().encode(JSON.stringify({
    sender: "M-Money",
    text,
    received_at: new Date().toISOString(),
  }));
  const response = await fetch(`${url}/sms`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...await signForwarded({ deviceId, secret, body }),
    },
    body,
  });
  return { status: response.status, json: await response.json() };
}

dbTest(
  "the operator registers a forwarder, its secret settles a payment; rotate and revoke take effect at once",
  async (db) => {
    const rt = await createTestRuntime(db);
    const fn = served(rt);
    try {
      const service = await rt.tokenFor(null);
      const added = await call(`${fn.url}/forwarders`, {
        token: service,
        body: { org: "beaver-paper", label: "Till 1, Kimihurura" },
      });
      assert.equal(added.status, 200, JSON.stringify(added.json));
      const device = added.json.data;
      assert.equal(device.org_id, ORG.beaver);
      assert.equal(device.label, "Till 1, Kimihurura");
      assert.match(device.secret, /^fwd_sk_/);

      const made = await charge(rt, { amount: 4100, payee_phone: "0788123456", memo: "b" }, {
        user: USER.nina,
        org: ORG.beaver,
      });
      const ref = made.data.momo_ref;
      const text = `You have received 4,100 RWF from NINA (2507******11) on your mobile money ` +
        `account at 2026-11-23 10:15:01. Message from sender: ${ref}. Financial Transaction Id: 71.`;
      const settled = await forwardSms(fn.url, device.device_id, device.secret, text);
      assert.equal(settled.status, 200, JSON.stringify(settled.json));
      assert.equal(settled.json.data.match_status, "matched");
      assert.equal(settled.json.data.momo_ref, ref);
      const [row] = await db.query<{ status: string; settled_by: string }>(
        "select status, settled_by from public.payments where momo_ref = $1",
        [ref],
      );
      assert.deepEqual(row, { status: "settled", settled_by: "sms" });

      // The list never shows a secret again.
      const listed = await call(`${fn.url}/forwarders?org=beaver-paper`, { token: service });
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.json.data.map((f: TestData) => f.device_id), [device.device_id]);
      assert.equal(JSON.stringify(listed.json).includes(device.secret), false);
      assert.equal("secret" in listed.json.data[0], false);

      const rotated = await call(`${fn.url}/forwarders/${device.device_id}/rotate`, {
        token: service,
        body: {},
      });
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.json.data.secret, device.secret);
      const other =
        "You have received 900 RWF from X (2507******99). Financial Transaction Id: 72.";
      assert.equal((await forwardSms(fn.url, device.device_id, device.secret, other)).status, 401);
      const fresh = await forwardSms(fn.url, device.device_id, rotated.json.data.secret, other);
      assert.equal(fresh.status, 200);

      const revoked = await call(`${fn.url}/forwarders/${device.device_id}/revoke`, {
        token: service,
        body: {},
      });
      assert.equal(revoked.status, 200);
      assert.ok(revoked.json.data.revoked_at);
      const after =
        "You have received 800 RWF from X (2507******99). Financial Transaction Id: 73.";
      const refused = await forwardSms(fn.url, device.device_id, rotated.json.data.secret, after);
      assert.equal(refused.status, 401);
      const again = await call(`${fn.url}/forwarders/${device.device_id}/rotate`, {
        token: service,
        body: {},
      });
      assert.equal(again.status, 409);
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "staff manage only their own org's forwarders; customers, strangers and bad input are refused",
  async (db) => {
    const rt = await createTestRuntime(db);
    const fn = served(rt);
    try {
      const paul = await rt.tokenFor(USER.paul); // Beaver staff
      const jean = await rt.tokenFor(USER.jean); // EasyMO staff
      const aline = await rt.tokenFor(USER.aline); // EasyMO customer
      const own = await call(`${fn.url}/forwarders`, {
        token: paul,
        body: { org: "beaver-paper", label: "Till" },
      });
      assert.equal(own.status, 200, JSON.stringify(own.json));
      const id = own.json.data.device_id;

      const refusals: Array<[string, Promise<{ status: number; json: TestData }>, number]> = [
        [
          "no token",
          call(`${fn.url}/forwarders`, { body: { org: "beaver-paper", label: "x" } }),
          401,
        ],
        [
          "Paul for EasyMO",
          call(`${fn.url}/forwarders`, {
            token: paul,
            body: { org: "easymo", label: "x" },
          }),
          403,
        ],
        [
          "Aline for EasyMO",
          call(`${fn.url}/forwarders`, {
            token: aline,
            body: { org: "easymo", label: "x" },
          }),
          403,
        ],
        [
          "Jean lists Beaver's",
          call(`${fn.url}/forwarders?org=beaver-paper`, { token: jean }),
          403,
        ],
        ["Aline lists EasyMO's", call(`${fn.url}/forwarders?org=easymo`, { token: aline }), 403],
        [
          "Jean rotates Beaver's",
          call(`${fn.url}/forwarders/${id}/rotate`, {
            token: jean,
            body: {},
          }),
          404,
        ],
        [
          "Jean revokes Beaver's",
          call(`${fn.url}/forwarders/${id}/revoke`, {
            token: jean,
            body: {},
          }),
          404,
        ],
        [
          "Jean revokes a missing one",
          call(`${fn.url}/forwarders/fwd-nothinghere/revoke`, {
            token: jean,
            body: {},
          }),
          404,
        ],
        ["no token rotates", call(`${fn.url}/forwarders/${id}/rotate`, { body: {} }), 401],
      ];
      for (const [what, answer, status] of refusals) {
        const { status: got, json } = await answer;
        assert.equal(got, status, `${what}: ${JSON.stringify(json)}`);
        assert.equal(json.ok, false, what);
        assert.notEqual(json.error.code, "INTERNAL_ERROR", what);
      }
      // Another org's device and a missing one get the same answer.
      const foreign = await call(`${fn.url}/forwarders/${id}/revoke`, { token: jean, body: {} });
      const missing = await call(`${fn.url}/forwarders/fwd-nothinghere/revoke`, {
        token: jean,
        body: {},
      });
      assert.deepEqual(foreign.json, missing.json);

      const bad = await call(`${fn.url}/forwarders`, {
        token: paul,
        body: { org: "beaver-paper", label: " ", device_id: "mine" },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.json.error.fields.map((f: { path: string }) => f.path).sort(), [
        "",
        "label",
      ]);
      // A NUL byte in the label (Postgres text cannot hold one) is the label's fault, not a 500.
      const nul = await call(`${fn.url}/forwarders`, {
        token: paul,
        body: { org: "beaver-paper", label: "Till\u0000 2" },
      });
      assert.equal(nul.status, 400, JSON.stringify(nul.json));
      assert.equal(nul.json.error.code, "VALIDATION_ERROR");
      assert.deepEqual(nul.json.error.fields.map((f: { path: string }) => f.path), ["label"]);
      const noOrg = await call(`${fn.url}/forwarders`, { token: paul });
      assert.equal(noOrg.status, 400);
      assert.equal(noOrg.json.error.fields[0].path, "org");

      // Paul's device is still the only one, with the key it was issued.
      const listed = await call(`${fn.url}/forwarders?org=beaver-paper`, { token: paul });
      assert.deepEqual(listed.json.data.map((f: TestData) => [f.device_id, f.revoked_at]), [
        [id, null],
      ]);
      const ok = await forwardSms(
        fn.url,
        id,
        own.json.data.secret,
        "You have received 700 RWF from X (2507******99). Financial Transaction Id: 74.",
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
    } finally {
      await fn.close();
    }
  },
);
