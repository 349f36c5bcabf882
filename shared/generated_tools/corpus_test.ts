import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { allowTenantApiOnLoopback } from "@testing/tenant_api_server.ts";
import {
  type EchoApi,
  openapi30Yaml,
  openapi31Document,
  startEchoApi,
  swagger2Document,
} from "@testing/api_corpus.ts";
import type { Database } from "@shared/db/types.ts";

type Runtime = Awaited<ReturnType<typeof createTestRuntime>>;

async function withEcho(db: Database, fn: (rt: Runtime, api: EchoApi) => Promise<void>) {
  const api = startEchoApi();
  const rt = await createTestRuntime(db);
  try {
    await allowTenantApiOnLoopback(db, ORG.easymo);
    await fn(rt, api);
  } finally {
    await api.close();
    await rt.platform.traces.flush();
  }
}

function register(rt: Runtime, args: Record<string, unknown>): Promise<TestData> {
  return callConfirmed(rt, USER.jean, "api_source_register", args);
}

async function credential(rt: Runtime, args: Record<string, unknown>): Promise<void> {
  const set: TestData = await callConfirmed(rt, USER.jean, "api_credential_set", args);
  assert.equal(set.ok, true, JSON.stringify(set));
}

dbTest(
  "generated tools corpus: a Swagger 2.0 document is upgraded, and its tools send path, query, body and the header key",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "inventory",
        kind: "openapi",
        document: JSON.stringify(swagger2Document(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.equal(registered.data.base_url, `${api.url}/v1`);
      assert.deepEqual(
        registered.data.tools.map((tool: { name: string }) => tool.name).sort(),
        ["inventory_get_item", "inventory_put_item"],
      );
      await credential(rt, { source: "inventory", scheme: "key", secret: "inv-secret" });
      // The enum holds, by field.
      const bad: TestData = await rt.callAs(USER.jean, "inventory_get_item", {
        sku: "A-1",
        warehouse: "nyc",
      });
      assert.equal(bad.error?.code, "VALIDATION_ERROR");
      assert.equal(bad.error.fields[0].path, "warehouse");
      const got: TestData = await rt.callAs(USER.jean, "inventory_get_item", {
        sku: "A 1",
        warehouse: "kgl",
      });
      assert.equal(got.ok, true, JSON.stringify(got));
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, "/v1/items/A%201");
      assert.equal(seen.query, "?warehouse=kgl");
      assert.equal(seen.headers["x-inventory-key"], "inv-secret");
      const put: TestData = await callConfirmed(rt, USER.jean, "inventory_put_item", {
        sku: "A-1",
        body: { name: "Rice", count: 3 },
      });
      assert.equal(put.ok, true, JSON.stringify(put));
      assert.equal(api.requests.at(-1)!.method, "PUT");
      assert.deepEqual(JSON.parse(api.requests.at(-1)!.body), { name: "Rice", count: 3 });
    });
  },
);

dbTest(
  "generated tools corpus: OpenAPI 3.0 in YAML with server variables, $ref'd parts, allOf, nullable, a form body, a bearer token and an operation without operationId",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "bookings",
        kind: "openapi",
        document: openapi30Yaml(api.url),
        expose: [],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.equal(registered.data.base_url, `${api.url}/api`, "server variables' defaults");
      assert.deepEqual(
        registered.data.tools.map((tool: { name: string }) => tool.name).sort(),
        ["bookings_cancel_booking", "bookings_create_booking", "bookings_get_bookings"],
      );
      await credential(rt, { source: "bookings", scheme: "token", secret: "tok-1" });
      const list: TestData = await rt.callAs(USER.jean, "bookings_get_bookings", { page: 2 });
      assert.equal(list.ok, true, JSON.stringify(list));
      assert.equal(api.requests.at(-1)!.path, "/api/bookings");
      assert.equal(api.requests.at(-1)!.query, "?page=2");
      assert.equal(api.requests.at(-1)!.headers.authorization, "Bearer tok-1");
      // allOf merged: the base's required guest and the extension's bounds both hold.
      const missing: TestData = await callConfirmed(rt, USER.jean, "bookings_create_booking", {
        body: { nights: 2 },
      });
      assert.equal(missing.error?.code, "VALIDATION_ERROR", JSON.stringify(missing));
      assert.equal(missing.error.fields[0].path, "body.guest");
      const tooLong: TestData = await callConfirmed(rt, USER.jean, "bookings_create_booking", {
        body: { guest: "Ana", nights: 31 },
      });
      assert.equal(tooLong.error?.code, "VALIDATION_ERROR");
      const made: TestData = await callConfirmed(rt, USER.jean, "bookings_create_booking", {
        body: { guest: "Ana", nights: 2, note: null, room: "suite" },
      });
      assert.equal(made.ok, true, JSON.stringify(made));
      assert.deepEqual(JSON.parse(api.requests.at(-1)!.body), {
        guest: "Ana",
        nights: 2,
        note: null,
        room: "suite",
      });
      // A path-level $ref'd uuid parameter and a form-urlencoded body.
      const badId: TestData = await callConfirmed(rt, USER.jean, "bookings_cancel_booking", {
        bookingId: "nope",
        body: { reason: "guest" },
      });
      assert.equal(badId.error?.code, "VALIDATION_ERROR");
      assert.equal(badId.error.fields[0].path, "bookingId");
      const id = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
      const cancelled: TestData = await callConfirmed(rt, USER.jean, "bookings_cancel_booking", {
        bookingId: id,
        body: { reason: "overbooked", refund: true },
      });
      assert.equal(cancelled.ok, true, JSON.stringify(cancelled));
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, `/api/bookings/${id}/cancel`);
      assert.equal(seen.headers["content-type"], "application/x-www-form-urlencoded");
      assert.equal(seen.body, "reason=overbooked&refund=true");
    });
  },
);

dbTest(
  "generated tools corpus: OpenAPI 3.1 with oneOf, type-with-null, a non-ASCII operationId, keys in header+query, cookie or basic; multipart is refused by path",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const document = JSON.stringify(openapi31Document(api.url));
      // Exposing the multipart upload is a clear error naming where, and nothing is registered.
      const refused = await register(rt, {
        name: "pay",
        kind: "openapi",
        document,
        expose: ["upload"],
      });
      assert.equal(refused.error?.code, "VALIDATION_ERROR", JSON.stringify(refused));
      assert.match(refused.error.msg, /multipart\/form-data/);
      assert.match(refused.error.msg, /#\/paths\/~1uploads\/post\/requestBody/);
      const none: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.deepEqual(none.data.sources, []);

      const registered = await register(rt, { name: "pay", kind: "openapi", document });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.deepEqual(
        registered.data.tools.map((tool: { name: string }) => tool.name).sort(),
        ["pay_creer_paiement", "pay_get_charge"],
      );
      // Both keys of the requirement are needed: with one, no request is made.
      await credential(rt, { source: "pay", scheme: "appKey", secret: "app-1" });
      const sent = api.requests.length;
      const half: TestData = await callConfirmed(rt, USER.jean, "pay_creer_paiement", {
        body: { momo: "250788123456" },
      });
      assert.equal(half.error?.code, "AUTH_ERROR", JSON.stringify(half));
      assert.equal(api.requests.length, sent);
      await credential(rt, { source: "pay", scheme: "tenantKey", secret: "ten-1" });
      // oneOf: neither branch (a momo number of the wrong shape) is refused.
      const wrong: TestData = await callConfirmed(rt, USER.jean, "pay_creer_paiement", {
        body: { momo: "12345" },
      });
      assert.equal(wrong.error?.code, "VALIDATION_ERROR", JSON.stringify(wrong));
      const paid: TestData = await callConfirmed(rt, USER.jean, "pay_creer_paiement", {
        "X-Request-Source": "agent",
        body: { card: "4111111111111111" },
      });
      assert.equal(paid.ok, true, JSON.stringify(paid));
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, "/pay/charges");
      assert.equal(seen.headers["x-app-key"], "app-1");
      assert.equal(seen.query, "?tenant_key=ten-1");
      assert.equal(seen.headers["x-request-source"], "agent");
      assert.ok(seen.headers["idempotency-key"], "a write carries its idempotency key");
      // Cookie or basic: the first requirement with a credential is used.
      await credential(rt, { source: "pay", scheme: "basic", username: "u", password: "p" });
      const read: TestData = await rt.callAs(USER.jean, "pay_get_charge", { id: "ch_1" });
      assert.equal(read.ok, true, JSON.stringify(read));
      assert.equal(api.requests.at(-1)!.headers.authorization, `Basic ${btoa("u:p")}`);
      await credential(rt, { source: "pay", scheme: "session", secret: "s-9" });
      await rt.callAs(USER.jean, "pay_get_charge", { id: "ch_1" });
      assert.equal(api.requests.at(-1)!.headers.cookie, "sid=s-9");
    });
  },
);

dbTest(
  "generated tools corpus: a GraphQL schema with unions, interfaces, custom scalars and input objects, from introspection JSON, calls through inline fragments",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const { buildSchema, getIntrospectionQuery, graphqlSync } = await import("graphql");
      const { SHOP_SDL } = await import("@testing/api_corpus.ts");
      const introspection = graphqlSync({
        schema: buildSchema(SHOP_SDL),
        source: getIntrospectionQuery(),
      });
      const registered = await register(rt, {
        name: "shop",
        kind: "graphql",
        document: JSON.stringify(introspection),
        base_url: `${api.url}/graphql`,
        expose: ["query.search", "query.node", "mutation.placeOrder"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const found: TestData = await rt.callAs(USER.jean, "shop_get_search", { text: "mug" });
      assert.equal(found.ok, true, JSON.stringify(found));
      assert.deepEqual(found.data, [
        { __typename: "Product", id: "p1", title: "Mug" },
        {
          __typename: "Order",
          id: "o1",
          status: "PAID",
          placedAt: "2026-01-01T00:00:00Z",
          grid: [[1, 2], [3]],
        },
      ]);
      const required: TestData = await rt.callAs(USER.jean, "shop_get_search", {});
      assert.equal(required.error?.code, "VALIDATION_ERROR");
      assert.equal(required.error.fields[0].path, "text");
      const placed: TestData = await callConfirmed(rt, USER.jean, "shop_place_order", {
        lines: [{ productId: "p1", quantity: 2 }],
      });
      assert.equal(placed.ok, true, JSON.stringify(placed));
      assert.equal(placed.data.status, "PAID");
      const strict: TestData = await callConfirmed(rt, USER.jean, "shop_place_order", {
        lines: [{ productId: "p1", quantity: 2, discount: 5 }],
      });
      assert.equal(strict.error?.code, "VALIDATION_ERROR");
      assert.equal(strict.error.fields[0].path, "lines.0");
    });
  },
);
