import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { allowTenantApiOnLoopback } from "@testing/tenant_api_server.ts";
import {
  type EchoApi,
  FILE_BYTES,
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
  "generated tools corpus: OpenAPI 3.1 with oneOf, type-with-null, a non-ASCII operationId, keys in header+query, cookie or basic; an unknown exposed id is refused by name",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const document = JSON.stringify(openapi31Document(api.url));
      // Exposing an operation the document lacks is a clear error naming it; nothing is registered.
      const refused = await register(rt, {
        name: "pay",
        kind: "openapi",
        document,
        expose: ["upload", "uploadd"],
      });
      assert.equal(refused.error?.code, "VALIDATION_ERROR", JSON.stringify(refused));
      assert.match(refused.error.msg, /No operation has operationId "uploadd"/);
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
      assert.match(strict.error.fields[0].message, /lines\.0\.discount/);
    });
  },
);

/** Bump.sh's Train Travel API (OpenAPI 3.1, YAML), as `@readme/oas-examples` ships it. */
const TRAIN_TRAVEL = await Deno.readTextFile(
  new URL("../../testing/api_documents/train_travel.yaml", import.meta.url),
);

/** A loopback server implementing four of its operations as the document describes them. */
function startTrainApi() {
  const seen: { method: string; path: string; query: string; auth: string | null; body: string }[] =
    [];
  const bookings = new Map<string, Record<string, unknown>>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const body = await request.text();
    seen.push({
      method: request.method,
      path: url.pathname,
      query: url.search,
      auth: request.headers.get("authorization"),
      body,
    });
    if (request.method === "GET" && url.pathname === "/stations") {
      return Response.json({
        data: [{
          id: "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e",
          name: "Kigali Nyabugogo",
          address: "KN 1 Rd, Kigali",
          country_code: "RW",
          timezone: "Africa/Kigali",
        }],
        links: { self: `${url.origin}/stations` },
      });
    }
    if (request.method === "POST" && url.pathname === "/bookings") {
      const booking = { id: crypto.randomUUID(), ...JSON.parse(body) };
      bookings.set(booking.id, booking);
      return Response.json(
        { ...booking, links: { self: `${url.origin}/bookings/${booking.id}` } },
        {
          status: 201,
        },
      );
    }
    const id = /^\/bookings\/([^/]+)$/.exec(url.pathname)?.[1];
    if (id && !bookings.has(id)) {
      return Response.json({ title: "Not found", status: 404 }, { status: 404 });
    }
    if (id && request.method === "GET") return Response.json(bookings.get(id));
    if (id && request.method === "DELETE") {
      bookings.delete(id);
      return new Response(null, { status: 204 });
    }
    return Response.json({ title: "Not implemented" }, { status: 501 });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    seen,
    close: () => server.shutdown(),
  };
}

dbTest(
  "generated tools corpus: a published OpenAPI 3.1 YAML document we did not write (Train Travel) registers, and its tools call a loopback server implementing it",
  async (db) => {
    const api = startTrainApi();
    const rt = await createTestRuntime(db);
    try {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered = await register(rt, {
        name: "trains",
        kind: "openapi",
        document: TRAIN_TRAVEL,
        base_url: api.url,
        expose: ["get-stations", "create-booking", "get-booking", "delete-booking"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const tools = registered.data.tools as {
        name: string;
        read_only: boolean;
        confirm_required: boolean;
        needs_credential: boolean;
      }[];
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [
        "trains_create_booking",
        "trains_delete_booking",
        "trains_get_booking",
        "trains_get_stations",
      ]);
      assert.equal(
        tools.find((tool) => tool.name === "trains_delete_booking")?.confirm_required,
        true,
      );
      assert.equal(tools.every((tool) => tool.needs_credential), true, "OAuth2 everywhere");
      // No token stored: no request is made.
      const before = api.seen.length;
      const anonymous: TestData = await rt.callAs(USER.jean, "trains_get_stations", {});
      assert.equal(anonymous.error?.code, "AUTH_ERROR", JSON.stringify(anonymous));
      assert.equal(api.seen.length, before);
      await credential(rt, { source: "trains", scheme: "OAuth2", secret: "train-token" });
      const stations: TestData = await rt.callAs(USER.jean, "trains_get_stations", {});
      assert.equal(stations.ok, true, JSON.stringify(stations));
      assert.equal(stations.data.data[0].name, "Kigali Nyabugogo");
      assert.equal(api.seen.at(-1)!.auth, "Bearer train-token");
      // The body's uuid format and its readOnly id hold, by field.
      const badTrip: TestData = await callConfirmed(rt, USER.jean, "trains_create_booking", {
        body: { trip_id: "not-a-uuid", passenger_name: "Aline" },
      });
      assert.equal(badTrip.error?.code, "VALIDATION_ERROR", JSON.stringify(badTrip));
      assert.equal(badTrip.error.fields[0].path, "body.trip_id");
      const withId: TestData = await callConfirmed(rt, USER.jean, "trains_create_booking", {
        body: { id: crypto.randomUUID(), passenger_name: "Aline" },
      });
      assert.equal(withId.error?.code, "VALIDATION_ERROR", "readOnly id is no input");
      const trip = "4f4e4e11-c824-4d63-b37a-d8d698862f1d";
      const made: TestData = await callConfirmed(rt, USER.jean, "trains_create_booking", {
        body: { trip_id: trip, passenger_name: "Aline", has_bicycle: true },
      });
      assert.equal(made.ok, true, JSON.stringify(made));
      assert.deepEqual(JSON.parse(api.seen.at(-1)!.body), {
        trip_id: trip,
        passenger_name: "Aline",
        has_bicycle: true,
      });
      const id = made.data.id as string;
      const read: TestData = await rt.callAs(USER.jean, "trains_get_booking", { bookingId: id });
      assert.equal(read.ok, true, JSON.stringify(read));
      assert.equal(read.data.passenger_name, "Aline");
      const removed: TestData = await callConfirmed(rt, USER.jean, "trains_delete_booking", {
        bookingId: id,
      });
      assert.equal(removed.ok, true, JSON.stringify(removed));
      assert.equal(api.seen.at(-1)!.method, "DELETE");
      // The API's 404 is NOT_FOUND, not an internal error.
      const gone: TestData = await rt.callAs(USER.jean, "trains_get_booking", { bookingId: id });
      assert.equal(gone.error?.code, "NOT_FOUND", JSON.stringify(gone));
    } finally {
      await api.close();
      await rt.platform.traces.flush();
    }
  },
);

dbTest(
  "generated tools corpus: a multipart/form-data body of text fields is sent multipart, checked by field first",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "pay",
        kind: "openapi",
        document: JSON.stringify(openapi31Document(api.url)),
        expose: ["attachNote"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.ok(
        registered.data.tools.some((tool: { name: string }) => tool.name === "pay_attach_note"),
      );
      const tooLong: TestData = await callConfirmed(rt, USER.jean, "pay_attach_note", {
        body: { text: "x".repeat(201) },
      });
      assert.equal(tooLong.error?.code, "VALIDATION_ERROR", JSON.stringify(tooLong));
      assert.equal(tooLong.error.fields[0].path, "body.text");
      const sent: TestData = await callConfirmed(rt, USER.jean, "pay_attach_note", {
        body: { text: "Umuriro wabuze", urgent: true, tags: ["power", "kicukiro"] },
      });
      assert.equal(sent.ok, true, JSON.stringify(sent));
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, "/pay/notes");
      const type = seen.headers["content-type"];
      assert.match(type, /^multipart\/form-data; ?boundary=/);
      // Read back as the API would.
      const form = await new Response(seen.body, { headers: { "content-type": type } }).formData();
      assert.equal(form.get("text"), "Umuriro wabuze");
      assert.equal(form.get("urgent"), "true");
      assert.deepEqual(form.getAll("tags"), ["power", "kicukiro"]);
    });
  },
);

dbTest(
  "generated tools corpus: a multipart file field takes base64 or a url and is sent as a file part; an image body and a text body are sent as themselves",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "pay",
        kind: "openapi",
        document: JSON.stringify(openapi31Document(api.url)),
        expose: ["upload", "putScan", "postMemo"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const png = FILE_BYTES;
      const base64 = btoa(String.fromCharCode(...png));
      // Base64: the API receives a real multipart body with the file's bytes, type and name.
      const sent: TestData = await callConfirmed(rt, USER.jean, "pay_upload", {
        body: { receipt: { data: base64, filename: "r.png" }, note: "Ifishi" },
      });
      assert.equal(sent.ok, true, JSON.stringify(sent));
      // The echo's answer holds the file's NUL byte in a JSON string, which jsonb cannot keep.
      assert.match(sent.data.body, /\uFFFD/);
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, "/pay/uploads");
      const form = await new Response(seen.bytes, {
        headers: { "content-type": seen.headers["content-type"] },
      }).formData();
      const part = form.get("receipt") as File;
      assert.equal(part.type, "image/png");
      assert.equal(part.name, "r.png");
      assert.deepEqual(new Uint8Array(await part.arrayBuffer()), png);
      assert.equal(form.get("note"), "Ifishi");
      // By address: read under the tenant's network rules, then sent the same way.
      const byUrl: TestData = await callConfirmed(rt, USER.jean, "pay_upload", {
        body: { receipt: { url: `${api.url}/files/r.png` } },
      });
      assert.equal(byUrl.ok, true, JSON.stringify(byUrl));
      const again = await new Response(api.requests.at(-1)!.bytes, {
        headers: { "content-type": api.requests.at(-1)!.headers["content-type"] },
      }).formData();
      assert.deepEqual(new Uint8Array(await (again.get("receipt") as File).arrayBuffer()), png);
      // Neither or both, base64 that is not, a type the document does not take: by field, unsent.
      const before = api.requests.length;
      for (
        const [receipt, path] of [
          [{ data: base64, url: `${api.url}/files/r.png` }, "body.receipt"],
          [{ data: "not base64!" }, "body.receipt.data"],
          [{ data: base64, media_type: "image/gif" }, "body.receipt.media_type"],
          [{ data: base64, colour: "red" }, "body.receipt"],
        ] as const
      ) {
        const bad: TestData = await callConfirmed(rt, USER.jean, "pay_upload", {
          body: { receipt },
        });
        assert.equal(bad.error?.code, "VALIDATION_ERROR", JSON.stringify(bad));
        assert.equal(bad.error.fields[0].path, path, JSON.stringify(bad));
      }
      // The file's address obeys the SSRF rules of every call (this tenant may reach loopback, so
      // a scheme that is no http is what is refused here).
      const ftp: TestData = await callConfirmed(rt, USER.jean, "pay_upload", {
        body: { receipt: { url: "ftp://127.0.0.1/r.png" } },
      });
      assert.equal(ftp.error?.code, "VALIDATION_ERROR", JSON.stringify(ftp));
      assert.equal(ftp.error.fields[0].path, "body.receipt.url");
      assert.equal(api.requests.length, before, "nothing was sent for a refused file");
      // A body that is an image's bytes: sent as the body, with its type.
      const scan: TestData = await callConfirmed(rt, USER.jean, "pay_put_scan", {
        id: "r1",
        body: { data: base64, media_type: "image/jpeg" },
      });
      assert.equal(scan.ok, true, JSON.stringify(scan));
      assert.equal(api.requests.at(-1)!.path, "/pay/receipts/r1/scan");
      assert.equal(api.requests.at(-1)!.headers["content-type"], "image/jpeg");
      assert.deepEqual(api.requests.at(-1)!.bytes, png);
      // A text/plain body: the string as it is.
      const memo: TestData = await callConfirmed(rt, USER.jean, "pay_post_memo", {
        body: "Amafaranga yageze",
      });
      assert.equal(memo.ok, true, JSON.stringify(memo));
      assert.equal(api.requests.at(-1)!.headers["content-type"], "text/plain");
      assert.equal(api.requests.at(-1)!.body, "Amafaranga yageze");
    });
  },
);

/** Two operations: one whose body no value can satisfy (`allOf` of a string and an integer). */
function partlyMappableDocument(apiUrl: string, only?: "impossible"): Record<string, unknown> {
  const impossible = {
    put: {
      operationId: "setCode",
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: { allOf: [{ type: "string" }, { type: "integer" }] } },
        },
      },
      responses: { "200": { description: "ok" } },
    },
  };
  const dated = {
    post: {
      operationId: "bookDay",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["day"],
              properties: {
                // A format beside a pattern: two patterns, which Gemini's export once refused.
                day: { type: "string", format: "date", pattern: "^20\\d\\d-" },
              },
            },
          },
        },
      },
      responses: { "200": { description: "ok" } },
    },
  };
  return {
    openapi: "3.0.3",
    info: { title: "Quirks", version: "1" },
    servers: [{ url: `${apiUrl}/q` }],
    paths: only ? { "/code": impossible } : { "/code": impossible, "/days": dated },
  };
}

dbTest(
  "generated tools corpus: an operation no value can satisfy is left out and named in the answer, the others register and call; when none maps, nothing is registered",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "quirks",
        kind: "openapi",
        document: JSON.stringify(partlyMappableDocument(api.url)),
        expose: ["setCode", "bookDay"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.deepEqual(
        registered.data.tools.map((tool: { name: string }) => tool.name),
        ["quirks_book_day"],
      );
      assert.equal(registered.data.skipped.length, 1);
      const [left] = registered.data.skipped;
      assert.equal(left.operation, "setCode");
      assert.equal(
        left.path,
        "#/paths/~1code/put/requestBody/content/application~1json/schema/allOf/0",
      );
      assert.match(left.reason, /allOf of string and integer: no value is all of them/);
      const bad: TestData = await callConfirmed(rt, USER.jean, "quirks_book_day", {
        body: { day: "1999-01-02" },
      });
      assert.equal(bad.error?.code, "VALIDATION_ERROR", JSON.stringify(bad));
      assert.equal(bad.error.fields[0].path, "body.day");
      const booked: TestData = await callConfirmed(rt, USER.jean, "quirks_book_day", {
        body: { day: "2026-03-04" },
      });
      assert.equal(booked.ok, true, JSON.stringify(booked));
      assert.equal(api.requests.at(-1)!.path, "/q/days");
      assert.deepEqual(JSON.parse(api.requests.at(-1)!.body), { day: "2026-03-04" });
      const sources: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.deepEqual(sources.data.sources[0].tools, ["quirks_book_day"]);
      // The list says what the answer said: staff who did not keep it still learn it.
      assert.deepEqual(sources.data.sources[0].skipped, registered.data.skipped);
      assert.deepEqual(sources.data.sources[0].not_offered, []);

      const none: TestData = await register(rt, {
        name: "quirks2",
        kind: "openapi",
        document: JSON.stringify(partlyMappableDocument(api.url, "impossible")),
        expose: ["setCode"],
      });
      assert.equal(none.error?.code, "VALIDATION_ERROR", JSON.stringify(none));
      assert.match(JSON.stringify(none.error.fields), /allOf of string and integer/);
      const listed: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.deepEqual(listed.data.sources.map((source: { name: string }) => source.name), [
        "quirks",
      ]);
    });
  },
);

/**
 * OpenAPI 3.0 in styles the other documents lack: `$ref`'d parameters, request bodies and
 * responses, a cookie and a header parameter, a query array sent `style: form, explode: false`,
 * `oneOf` with a discriminator, `readOnly`/`writeOnly`, `nullable`.
 */
function clinicDocument(apiUrl: string): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Clinic", version: "2" },
    servers: [{ url: `${apiUrl}/clinic` }],
    paths: {
      "/notes/{tag}": {
        get: {
          operationId: "getNote",
          parameters: [{ name: "tag", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { $ref: "#/components/responses/Echo" } },
        },
      },
      "/patients/{patientId}/visits": {
        parameters: [{ $ref: "#/components/parameters/PatientId" }],
        get: {
          operationId: "listVisits",
          parameters: [
            {
              name: "status",
              in: "query",
              style: "form",
              explode: false,
              schema: { type: "array", items: { type: "string", enum: ["open", "closed"] } },
            },
            { name: "X-Clinic", in: "header", required: true, schema: { type: "string" } },
            { name: "session", in: "cookie", schema: { type: "string" } },
          ],
          responses: { "200": { $ref: "#/components/responses/Echo" } },
        },
        post: {
          operationId: "addVisit",
          requestBody: { $ref: "#/components/requestBodies/Visit" },
          responses: { "201": { $ref: "#/components/responses/Visits" } },
        },
      },
    },
    components: {
      parameters: {
        PatientId: {
          name: "patientId",
          in: "path",
          required: true,
          schema: { type: "integer", minimum: 1 },
        },
      },
      requestBodies: {
        Visit: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Visit" } } },
        },
      },
      responses: {
        Echo: {
          description: "what the loopback API answers",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { method: { type: "string" }, query: { type: "string" } },
              },
            },
          },
        },
        Visits: {
          description: "visits",
          content: {
            "application/json": {
              schema: { type: "array", items: { $ref: "#/components/schemas/Visit" } },
            },
          },
        },
      },
      schemas: {
        Visit: {
          type: "object",
          required: ["reason", "payer"],
          properties: {
            id: { type: "integer", readOnly: true },
            reason: { type: "string", minLength: 2 },
            note: { type: "string", nullable: true },
            pin: { type: "string", writeOnly: true },
            payer: {
              oneOf: [
                { $ref: "#/components/schemas/Insurer" },
                { $ref: "#/components/schemas/Cash" },
              ],
              discriminator: { propertyName: "kind" },
            },
          },
        },
        Insurer: {
          type: "object",
          required: ["kind", "insurer"],
          properties: { kind: { type: "string", enum: ["Insurer"] }, insurer: { type: "string" } },
        },
        Cash: {
          type: "object",
          required: ["kind", "amount"],
          properties: { kind: { type: "string", enum: ["Cash"] }, amount: { type: "number" } },
        },
      },
    },
  };
}

dbTest(
  "generated tools corpus: OpenAPI 3.0 with $ref'd parameters, bodies and responses, cookie and header parameters, a form-style unexploded array, a discriminated oneOf, readOnly/writeOnly, and an answer not as documented",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "clinic",
        kind: "openapi",
        document: JSON.stringify(clinicDocument(api.url)),
        expose: ["listVisits", "addVisit", "getNote"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.deepEqual(registered.data.skipped, []);
      const listed: TestData = await rt.callAs(USER.jean, "clinic_list_visits", {
        patientId: 7,
        status: ["open", "closed"],
        "X-Clinic": "kgl",
      });
      assert.equal(listed.ok, true, JSON.stringify(listed));
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, "/clinic/patients/7/visits");
      assert.equal(decodeURIComponent(seen.query), "?status=open,closed");
      assert.equal(seen.headers["x-clinic"], "kgl");
      // Cookies are a credential's to set, never the model's.
      assert.equal(seen.headers.cookie, undefined);
      const cookie: TestData = await rt.callAs(USER.jean, "clinic_list_visits", {
        patientId: 7,
        "X-Clinic": "kgl",
        session: "s1",
      });
      assert.equal(cookie.error?.code, "VALIDATION_ERROR");
      const badPath: TestData = await rt.callAs(USER.jean, "clinic_list_visits", {
        patientId: 0,
        "X-Clinic": "kgl",
      });
      assert.equal(badPath.error?.code, "VALIDATION_ERROR");
      assert.equal(badPath.error.fields[0].path, "patientId");
      // What a header or a URL cannot carry is the caller's mistake, named, and nothing is sent.
      const sentBefore = api.requests.length;
      for (
        const [args, path] of [
          [{ patientId: 7, "X-Clinic": "kgl\r\nX-Admin: yes" }, "X-Clinic"],
          [{ patientId: 7, "X-Clinic": "kgl 🙂" }, "X-Clinic"],
          [{ patientId: 7, "X-Clinic": "kgl\ud800" }, "X-Clinic"],
        ] as const
      ) {
        const refused: TestData = await rt.callAs(USER.jean, "clinic_list_visits", args);
        assert.equal(refused.error?.code, "VALIDATION_ERROR", JSON.stringify(refused));
        assert.equal(refused.error.fields[0].path, path);
      }
      const brokenPath: TestData = await rt.callAs(USER.jean, "clinic_get_note", {
        tag: "flu\ud800",
      });
      assert.equal(brokenPath.error?.code, "VALIDATION_ERROR", JSON.stringify(brokenPath));
      assert.equal(brokenPath.error.fields[0].path, "tag");
      assert.equal(api.requests.length, sentBefore);
      const note: TestData = await rt.callAs(USER.jean, "clinic_get_note", { tag: "flu & fever" });
      assert.equal(note.ok, true, JSON.stringify(note));
      assert.equal(api.requests.at(-1)!.path, "/clinic/notes/flu%20%26%20fever");
      // The server's id is not the caller's to send; the write-only pin is.
      const withId: TestData = await callConfirmed(rt, USER.jean, "clinic_add_visit", {
        patientId: 7,
        body: { id: 3, reason: "fever", payer: { kind: "Cash", amount: 2000 } },
      });
      assert.equal(withId.error?.code, "VALIDATION_ERROR", JSON.stringify(withId));
      const wrongBranch: TestData = await callConfirmed(rt, USER.jean, "clinic_add_visit", {
        patientId: 7,
        body: { reason: "fever", payer: { kind: "Cash", insurer: "RSSB" } },
      });
      assert.equal(wrongBranch.error?.code, "VALIDATION_ERROR", JSON.stringify(wrongBranch));
      const added: TestData = await callConfirmed(rt, USER.jean, "clinic_add_visit", {
        patientId: 7,
        body: {
          reason: "fever",
          note: null,
          pin: "1234",
          payer: { kind: "Insurer", insurer: "RSSB" },
        },
      });
      // The loopback API answers an object where the document promises a list of visits: the
      // API's failure, said as such (it was INTERNAL_ERROR), the request sent as documented.
      assert.equal(added.error?.code, "SERVICE_UNAVAILABLE", JSON.stringify(added));
      assert.match(added.error.msg, /not as its API document describes/);
      assert.equal(api.requests.at(-1)!.method, "POST");
      assert.deepEqual(JSON.parse(api.requests.at(-1)!.body), {
        reason: "fever",
        note: null,
        pin: "1234",
        payer: { kind: "Insurer", insurer: "RSSB" },
      });
    });
  },
);

/** A booking API whose reads need a cookie parameter beside a cookie credential. */
function cookieDocument(apiUrl: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Bookings", version: "1" },
    servers: [{ url: `${apiUrl}/book` }],
    components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: "sid" } } },
    paths: {
      "/slots": {
        get: {
          operationId: "listSlots",
          "x-agent": { action: true },
          security: [{ session: [] }],
          parameters: [
            { name: "branch", in: "cookie", required: true, schema: { type: "string" } },
            {
              name: "days",
              in: "cookie",
              required: true,
              schema: { type: "array", items: { type: "integer" } },
            },
            // Optional: left out of the input (cookies mostly carry session state).
            { name: "theme", in: "cookie", schema: { type: "string" } },
            // The credential's own cookie, declared again as a parameter: never the model's.
            { name: "sid", in: "cookie", required: true, schema: { type: "string" } },
          ],
          responses: { 200: { description: "ok" } },
        },
      },
    },
  };
}

dbTest(
  "generated tools corpus: a required cookie parameter is the tool's argument and is sent beside the cookie credential; an unknown argument is named",
  async (db) => {
    await withEcho(db, async (rt, api) => {
      const registered = await register(rt, {
        name: "book",
        kind: "openapi",
        document: JSON.stringify(cookieDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      await credential(rt, { source: "book", scheme: "session", secret: "s-1" });
      const sent = api.requests.length;
      const missing: TestData = await rt.callAs(USER.jean, "book_list_slots", {});
      assert.equal(missing.error?.code, "VALIDATION_ERROR", JSON.stringify(missing));
      assert.deepEqual(
        missing.error.fields.map((field: { path: string }) => field.path).sort(),
        ["branch", "days"],
      );
      const misspelt: TestData = await rt.callAs(USER.jean, "book_list_slots", {
        branch: "remera",
        days: [1],
        dayz: [1],
        theme: "dark",
      });
      assert.equal(misspelt.error?.code, "VALIDATION_ERROR", JSON.stringify(misspelt));
      assert.deepEqual(misspelt.error.fields.map((field: { path: string }) => field.path), [""]);
      assert.match(misspelt.error.msg, /^Invalid request: check dayz, theme$/);
      assert.equal(api.requests.length, sent, "nothing is sent for a refused call");
      const read: TestData = await rt.callAs(USER.jean, "book_list_slots", {
        branch: "Remera; Kigali",
        days: [1, 2],
      });
      assert.equal(read.ok, true, JSON.stringify(read));
      assert.equal(
        api.requests.at(-1)!.headers.cookie,
        "branch=Remera%3B%20Kigali; days=1,2; sid=s-1",
      );
    });
  },
);
