import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import {
  callConfirmed,
  createTestRuntime,
  TEST_SECRET,
  type TestData,
  type TestRuntime,
} from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import {
  allowTenantApiOnLoopback,
  PET_API_KEY,
  PETSTORE_SDL,
  petstoreDocument,
  startTenantApi,
  type TenantApiServer,
} from "@testing/tenant_api_server.ts";
import type { Database } from "@shared/db/types.ts";
import { ToolRegistry } from "@shared/registry/registry.ts";
import { exportTools } from "@shared/export/export_tools.ts";
import { createCredentialBox, credentialBoxFromEnv } from "./credential_box.ts";
import type { GeneratedToolsEngine } from "./sync_engine.ts";
import { createPostgresToolSync } from "./sync.ts";

async function withApi(
  db: Database,
  fn: (rt: TestRuntime, api: TenantApiServer) => Promise<void>,
  runtimes: TestRuntime[] = [],
): Promise<void> {
  const api = startTenantApi();
  const rt = await createTestRuntime(db);
  try {
    await fn(rt, api);
  } finally {
    await api.close();
    for (const other of runtimes) await other.platform.traces.flush();
    await rt.platform.traces.flush();
  }
}

dbTest(
  "generated tools: staff register an OpenAPI document and its tools call the tenant's API with the sealed key",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.deepEqual(registered.data.tools.map((tool: { name: string }) => tool.name), [
        "petstore_list_pets",
        "petstore_create_pet",
        "petstore_delete_pet",
      ]);
      assert.equal(registered.data.base_url, `${api.url}/`);

      // Without a credential the tool says so (and what to do), with no call made.
      const noKey: TestData = await rt.callAs(USER.jean, "petstore_list_pets", { limit: 1 });
      assert.equal(noKey.error?.code, "AUTH_ERROR", JSON.stringify(noKey));
      assert.match(noKey.error.msg, /api_credential_set/);
      assert.equal(api.requests.length, 0);

      const set: TestData = await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      assert.equal(set.ok, true, JSON.stringify(set));
      assert.doesNotMatch(JSON.stringify(set), new RegExp(PET_API_KEY));
      // At rest: ciphertext, never the key.
      const [row] = await db.query<{ ciphertext: string }>(
        "select ciphertext from public.api_credentials where org_id = $1",
        [ORG.easymo],
      );
      assert.ok(row.ciphertext.length > 20);
      assert.ok(!row.ciphertext.includes(PET_API_KEY));
      assert.ok(!atob(row.ciphertext).includes(PET_API_KEY));

      const pets: TestData = await rt.callAs(USER.jean, "petstore_list_pets", { limit: 1 });
      assert.equal(pets.ok, true, JSON.stringify(pets));
      assert.deepEqual(pets.data, [{ id: 1, name: "Rex", tag: "dog" }]);
      const seen = api.requests.at(-1)!;
      assert.equal(seen.path, "/pets");
      assert.equal(seen.query, "?limit=1");
      assert.equal(seen.headers["x-api-key"], PET_API_KEY);

      // A write forwards the call's idempotency key and runs once per key.
      const created: TestData = await rt.callAs(USER.jean, "petstore_create_pet", {
        body: { name: "Kit", tag: "cat" },
      }, { idempotencyKey: "create-kit-1" });
      assert.equal(created.ok, true, JSON.stringify(created));
      assert.equal(created.data.name, "Kit");
      assert.equal(api.requests.at(-1)!.headers["idempotency-key"], "create-kit-1");
      const before = api.requests.length;
      const replay: TestData = await rt.callAs(USER.jean, "petstore_create_pet", {
        body: { name: "Kit", tag: "cat" },
      }, { idempotencyKey: "create-kit-1" });
      assert.deepEqual(replay.data, created.data);
      assert.equal(api.requests.length, before, "a replay does not call the API again");

      // Bad input: a clear error with the field path, no call made.
      const bad: TestData = await rt.callAs(USER.jean, "petstore_create_pet", {
        body: { name: "Kit", tag: "lion", colour: "red" },
      }, { idempotencyKey: "bad-1" });
      assert.equal(bad.error.code, "VALIDATION_ERROR");
      assert.deepEqual(bad.error.fields.map((field: { path: string }) => field.path).sort(), [
        "body",
        "body.tag",
      ]);
      assert.equal(api.requests.length, before);

      // DELETE asks first; the API's 404 is NOT_FOUND, never INTERNAL_ERROR.
      const gone: TestData = await callConfirmed(rt, USER.jean, "petstore_delete_pet", {
        petId: 999,
      });
      assert.equal(gone.error?.code, "NOT_FOUND", JSON.stringify(gone));

      // The key is in no log line and no trace row.
      await rt.platform.traces.flush();
      assert.doesNotMatch(JSON.stringify(rt.log.lines), new RegExp(PET_API_KEY));
      const traces = await db.query("select * from public.tool_calls");
      assert.ok(traces.length > 0);
      assert.doesNotMatch(JSON.stringify(traces), new RegExp(PET_API_KEY));
      // Listing shows which schemes have a credential, never the credential.
      await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      const listed: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.deepEqual(listed.data.sources[0].credential_schemes, ["ApiKeyAuth"]);
      assert.doesNotMatch(JSON.stringify(listed), /ciphertext|pk_test/);
    });
  },
);

dbTest(
  "generated tools: a tool registered through one instance is callable through another, and removal reaches it",
  async (db) => {
    const api = startTenantApi();
    const a = await createTestRuntime(db);
    const b = await createTestRuntime(db);
    try {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      // B lists before anything exists, so it has synced an old version.
      assert.equal(
        b.platform.getToolsForTenant(ORG.easymo).some((t) => t.name.startsWith("pets_")),
        false,
      );
      const registered: TestData = await callConfirmed(a, USER.jean, "api_source_register", {
        name: "pets",
        kind: "openapi",
        url: `${api.url}/openapi.json`,
        expose: ["getPet"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.ok(
        registered.data.tools.some((tool: { name: string }) => tool.name === "pets_get_pet"),
      );
      await callConfirmed(a, USER.jean, "api_credential_set", {
        source: "pets",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      const version = await b.platform.runtimeTools.version(ORG.easymo);
      assert.notEqual(version, "0");
      await b.platform.syncTools(ORG.easymo, true);
      const pet: TestData = await b.callAs(USER.jean, "pets_get_pet", { petId: 2 });
      assert.equal(pet.ok, true, JSON.stringify(pet));
      assert.equal(pet.data.name, "Tom");
      // A second sync at the same version changes nothing.
      assert.equal(await b.platform.syncTools(ORG.easymo, true), false);

      const removed: TestData = await callConfirmed(a, USER.jean, "api_source_remove", {
        name: "pets",
      });
      assert.equal(removed.ok, true, JSON.stringify(removed));
      assert.equal(await b.platform.syncTools(ORG.easymo, true), true);
      const after: TestData = await b.callAs(USER.jean, "pets_get_pet", { petId: 2 });
      assert.equal(after.error?.code, "NOT_FOUND");
    } finally {
      await api.close();
      await a.platform.traces.flush();
      await b.platform.traces.flush();
    }
  },
);

dbTest(
  "generated tools: tenant B neither sees nor calls tenant A's tools, nor reads its documents or credentials",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      await rt.platform.syncTools(ORG.beaver, true);
      assert.equal(
        rt.platform.getToolsForTenant(ORG.beaver).some((tool) => tool.name.startsWith("petstore_")),
        false,
      );
      const call: TestData = await rt.callAs(USER.paul, "petstore_list_pets", {}, {
        org: ORG.beaver,
      });
      assert.equal(call.error.code, "NOT_FOUND");
      const list: TestData = await rt.callAs(USER.paul, "api_source_list", {}, { org: ORG.beaver });
      assert.deepEqual(list.data.sources, []);
      // Under RLS as Beaver's staff, and as EasyMO's customer: no rows.
      for (const [user, org] of [[USER.paul, ORG.beaver], [USER.aline, ORG.easymo]]) {
        const rows = await db.asCaller({ sub: user, role: "authenticated" }, (tx) =>
          tx.query(
            "select (select count(*) from public.api_sources)::int as s, (select count(*) from public.api_credentials)::int as c",
          ), {});
        assert.deepEqual(rows, [{ s: 0, c: 0 }], `${user} in ${org}`);
      }
      // A customer of A cannot register or list.
      const customer: TestData = await callConfirmed(rt, USER.aline, "api_source_list", {});
      assert.equal(customer.error.code, "AUTH_ERROR");
    });
  },
);

dbTest(
  "generated tools: registration refuses loopback without the setting, unlisted hosts, and names taken by platform tools, registering nothing",
  async (db) => {
    await withApi(db, async (rt, api) => {
      const doc = petstoreDocument(api.url);
      const loopback: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(doc),
      });
      assert.equal(loopback.error.code, "VALIDATION_ERROR", JSON.stringify(loopback));
      assert.equal(loopback.error.fields[0].path, "base_url");
      assert.match(loopback.error.msg, /private or reserved/);
      const unlisted: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        url: `${api.url}/openapi.json`,
      });
      assert.equal(unlisted.error.code, "VALIDATION_ERROR");
      assert.equal(unlisted.error.fields[0].path, "url");
      assert.equal(api.requests.length, 0, "nothing was fetched");

      await allowTenantApiOnLoopback(db, ORG.easymo);
      // An operation whose name becomes a platform tool's: a clear error, nothing registered.
      const clash = structuredClone(doc) as {
        paths: Record<string, Record<string, { operationId?: string }>>;
      };
      clash.paths["/pets"].get.operationId = "list";
      const taken: TestData = await callConfirmed(rt, USER.jean, "api_source", {});
      assert.equal(taken.error.code, "NOT_FOUND");
      const collision: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "api",
        kind: "openapi",
        document: JSON.stringify({
          ...clash,
          paths: {
            ...clash.paths,
            "/sources": {
              get: {
                operationId: "source_list",
                "x-agent": { action: true },
                responses: { "200": { description: "ok" } },
              },
            },
          },
        }),
      });
      assert.equal(collision.error.code, "CONFLICT", JSON.stringify(collision));
      assert.match(collision.error.msg, /api_source_list, which is taken by a platform tool/);
      const [count] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.api_sources",
      );
      assert.equal(count.n, 0);
      // A model cannot open the private network: the field does not exist.
      const sneaky: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "x",
        kind: "openapi",
        document: JSON.stringify(doc),
        allowPrivateNetwork: true,
      });
      assert.equal(sneaky.error.code, "VALIDATION_ERROR");
    });
  },
);

dbTest(
  "generated tools: GraphQL fields the tenant picks become typed tools with a bounded selection",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "gql",
        kind: "graphql",
        url: `${api.url}/graphql`,
        expose: ["query.pet", "query.pets", "mutation.addPet"],
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.deepEqual(registered.data.tools.map((tool: { name: string }) => tool.name), [
        "gql_get_pet",
        "gql_get_pets",
        "gql_add_pet",
      ]);
      const pet: TestData = await rt.callAs(USER.jean, "gql_get_pet", { id: "1" });
      assert.equal(pet.ok, true, JSON.stringify(pet));
      assert.equal(pet.data.name, "Rex");
      const query = JSON.parse(api.requests.at(-1)!.body).query as string;
      assert.doesNotMatch(query, /friends/, "fields that need arguments are skipped");
      const bad: TestData = await rt.callAs(USER.jean, "gql_get_pets", { tag: "LION" });
      assert.equal(bad.error.code, "VALIDATION_ERROR");
      assert.deepEqual(bad.error.fields.map((field: { path: string }) => field.path), ["tag"]);
      const added: TestData = await rt.callAs(USER.jean, "gql_add_pet", {
        input: { name: "Polly", tag: "BIRD", born: "2020-01-01" },
      }, { idempotencyKey: "polly" });
      assert.equal(added.ok, true, JSON.stringify(added));
      assert.equal(added.data.name, "Polly");
      const unknown: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "gql2",
        kind: "graphql",
        document: PETSTORE_SDL,
        base_url: `${api.url}/graphql`,
        expose: ["query.nothing"],
      });
      assert.equal(unknown.error.code, "VALIDATION_ERROR");
      assert.equal(unknown.error.fields[0].path, "expose");
    });
  },
);

dbTest(
  "generated tools: a YAML document is validated at registration and stored as JSON that other instances map",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const yaml = [
        "openapi: 3.0.3",
        "info: {title: Pets, version: '1'}",
        `servers: [{url: '${api.url}'}]`,
        "paths:",
        "  /pets/{petId}:",
        "    get:",
        "      operationId: getPet",
        "      x-agent: {action: true}",
        "      security: [{key: []}]",
        "      parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]",
        "      responses: {'200': {description: ok}}",
        "components:",
        "  securitySchemes: {key: {type: apiKey, in: header, name: X-Api-Key}}",
      ].join("\n");
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "yamlpets",
        kind: "openapi",
        document: yaml,
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const [row] = await db.query<{ document: string }>(
        "select document from public.api_sources where name = 'yamlpets'",
      );
      assert.equal(JSON.parse(row.document).openapi, "3.0.3");
      await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "yamlpets",
        scheme: "key",
        secret: PET_API_KEY,
      });
      const pet: TestData = await rt.callAs(USER.jean, "yamlpets_get_pet", { petId: 1 });
      assert.equal(pet.data?.name, "Rex", JSON.stringify(pet));
      // An invalid document names where: nothing is stored.
      const bad: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "bad",
        kind: "openapi",
        document: "openapi: 3.1.0\ninfo: {title: x}\npaths: {/a: {get: {operationId: 5}}}\n",
      });
      assert.equal(bad.error.code, "VALIDATION_ERROR");
      assert.equal(bad.error.fields[0].path, "document");
      assert.match(bad.error.fields[0].message, /#\/paths/);
    });
  },
);

dbTest(
  "generated tools: a credential sealed under another key is AUTH_ERROR asking to set it again, never INTERNAL_ERROR",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      // The row as another deployment's key would have sealed it.
      await db.query("update public.api_credentials set key_id = 'ffffffffffffffff'");
      await rt.platform.syncTools(ORG.easymo, true);
      const call: TestData = await rt.callAs(USER.jean, "petstore_list_pets", {});
      assert.equal(call.error?.code, "AUTH_ERROR", JSON.stringify(call));
      assert.match(call.error.msg, /api_credential_set/);
      assert.equal(api.requests.length, 0);
    });
  },
);

dbTest(
  "generated tools: another instance reads the plans registration stored and never maps the document",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const [row] = await db.query<{ plans: { text: string; sig: string } }>(
        "select plans from public.api_sources where org_id = $1 and name = 'petstore'",
        [ORG.easymo],
      );
      const storedPlans = JSON.parse(row.plans.text) as { plans: { name: string }[] };
      assert.deepEqual(storedPlans.plans.map((plan) => plan.name), [
        "petstore_list_pets",
        "petstore_create_pet",
        "petstore_delete_pet",
      ]);

      // An instance whose generator cannot map anything still serves the source.
      const mapped: string[] = [];
      const engine: GeneratedToolsEngine = {
        plan(source) {
          mapped.push(source.name);
          return Promise.reject(new Error("mapped the document"));
        },
      };
      const sync = createPostgresToolSync({
        db,
        // The same server key as the registering instance (another instance of one deployment).
        box: await credentialBoxFromEnv(TEST_SECRET),
        engine,
      });
      const registry = new ToolRegistry();
      assert.equal(await sync.sync(ORG.easymo, registry), true);
      assert.deepEqual(mapped, []);
      const tools = registry.list({ tenantId: ORG.easymo })
        .sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(tools.map((tool) => tool.name), [
        "petstore_create_pet",
        "petstore_delete_pet",
        "petstore_list_pets",
      ]);
      // Listed exactly as the registering instance lists them, and checked the same way.
      const there = rt.platform.getToolsForTenant(ORG.easymo)
        .filter((tool) => tool.name.startsWith("petstore_"))
        .sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(exportTools(tools, "mcp"), exportTools(there, "mcp"));
      assert.equal(tools[2].input.safeParse({ limit: 0 }).success, false);
      assert.equal(tools[2].input.safeParse({ limit: 2 }).success, true);

      // An instance under another server key does not take those plans.
      const foreign = createPostgresToolSync({
        db,
        box: await createCredentialBox("x".repeat(32)),
        engine,
      });
      const foreignRegistry = new ToolRegistry();
      await foreign.sync(ORG.easymo, foreignRegistry);
      assert.deepEqual(foreignRegistry.list({ tenantId: ORG.easymo }), []);

      // A row without plans (written outside registration) is refused, not mapped from its document.
      await db.query("update public.api_sources set plans = null where org_id = $1", [ORG.easymo]);
      const empty = new ToolRegistry();
      await sync.sync(ORG.easymo, empty);
      assert.deepEqual(mapped, []);
      assert.deepEqual(empty.list({ tenantId: ORG.easymo }), []);
    });
  },
);

dbTest(
  "generated tools: plans forged by staff through the table (RLS lets them write the row) are refused at sync, and staff see why",
  async (db) => {
    await withApi(db, async (rt, api) => {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      const listed: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.deepEqual(
        listed.data.sources.map((s: { status: string; problem: unknown }) => [s.status, s.problem]),
        [["active", null]],
      );
      const before: TestData = await rt.callAs(USER.jean, "petstore_list_pets", { limit: 500 });
      assert.equal(before.error?.code, "VALIDATION_ERROR", "limit's maximum holds");

      // Staff rewrite the stored plans as the RLS lets them: drop the limit's maximum, and point the
      // call elsewhere. The row is theirs to write, but the signature is the platform's.
      await db.asCaller({ sub: USER.jean, role: "authenticated" }, async (tx) => {
        const [row] = await tx.query<{ plans: { text: string; sig: string } }>(
          "select plans from public.api_sources where org_id = $1 and name = 'petstore'",
          [ORG.easymo],
        );
        const forged = row.plans.text.replaceAll('"maximum":', '"x_maximum":')
          .replaceAll('"path":"/pets"', '"path":"/admin"');
        assert.notEqual(forged, row.plans.text);
        const updated = await tx.query(
          `update public.api_sources set plans = $2::text::jsonb
           where org_id = $1 and name = 'petstore' returning id`,
          [ORG.easymo, JSON.stringify({ ...row.plans, text: forged })],
        );
        assert.equal(updated.length, 1, "staff can write the row");
      });
      await rt.platform.syncTools(ORG.easymo, true);
      const after: TestData = await rt.callAs(USER.jean, "petstore_list_pets", { limit: 500 });
      assert.equal(after.error?.code, "NOT_FOUND", JSON.stringify(after));
      assert.equal(api.requests.length, 0, "no call went out");
      assert.equal(
        rt.platform.getToolsForTenant(ORG.easymo).some((tool) => tool.name.startsWith("petstore_")),
        false,
      );
      // Staff see it, with what to do.
      const refused: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.equal(refused.data.sources[0].status, "refused");
      assert.match(refused.data.sources[0].problem, /do not match their signature/);
      assert.match(refused.data.sources[0].problem, /api_source_register/);

      // Moving the base URL by hand is refused the same way (it is signed with the plans).
      const again: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(again.ok, true, JSON.stringify(again));
      await rt.platform.syncTools(ORG.easymo, true);
      const works: TestData = await rt.callAs(USER.jean, "petstore_list_pets", {});
      assert.equal(works.ok, true, JSON.stringify(works));
      await db.asCaller({ sub: USER.jean, role: "authenticated" }, (tx) =>
        tx.query(
          "update public.api_sources set base_url = 'http://127.0.0.1:9/' where org_id = $1",
          [ORG.easymo],
        ));
      await rt.platform.syncTools(ORG.easymo, true);
      const moved: TestData = await rt.callAs(USER.jean, "petstore_list_pets", {});
      assert.equal(moved.error?.code, "NOT_FOUND", JSON.stringify(moved));
      const listedMoved: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.equal(listedMoved.data.sources[0].status, "refused");

      // The signed parts are read as text columns: a text that is no longer a JSON string (an
      // object in its place) is refused as malformed, not read as its JSON spelling.
      await db.asCaller({ sub: USER.jean, role: "authenticated" }, (tx) =>
        tx.query(
          `update public.api_sources
           set plans = jsonb_set(plans, '{text}', jsonb_build_object('plans', '[]'::jsonb))
           where org_id = $1`,
          [ORG.easymo],
        ));
      await rt.platform.syncTools(ORG.easymo, true);
      const listedMalformed: TestData = await rt.callAs(USER.jean, "api_source_list", {});
      assert.equal(listedMalformed.data.sources[0].status, "refused");
      assert.match(listedMalformed.data.sources[0].problem, /stored plans are malformed/);
    });
  },
);

dbTest(
  "generated tools: an org admin sets the URL allowlist (staff then register from it); plain staff cannot, and nobody but the service opens the private network",
  async (db) => {
    await withApi(db, async (rt, api) => {
      // The operator's part, by SQL as the service: the private network (the API is on loopback).
      await db.query(
        `insert into public.api_source_settings (org_id, allow_private_network) values ($1, true)`,
        [ORG.easymo],
      );
      const versionBefore = await rt.platform.runtimeTools.version(ORG.easymo);

      // Plain staff may neither read nor set it through the tools.
      const staffSet: TestData = await callConfirmed(rt, USER.jean, "api_url_allowlist_set", {
        hosts: ["127.0.0.1"],
      });
      assert.equal(staffSet.error?.code, "AUTH_ERROR", JSON.stringify(staffSet));
      const staffGet: TestData = await rt.callAs(USER.jean, "api_url_allowlist_get", {});
      assert.equal(staffGet.error?.code, "AUTH_ERROR");
      // A host is a host: no scheme, path or wildcard (the field named).
      const bad: TestData = await rt.callAs(USER.grace, "api_url_allowlist_set", {
        hosts: ["api.ok.example", "https://evil.example/x"],
      }, { idempotencyKey: "allowlist-bad" });
      assert.equal(bad.error?.code, "VALIDATION_ERROR");
      assert.deepEqual(bad.error.fields.map((field: { path: string }) => field.path), ["hosts.1"]);

      // The admin sets it (asked to confirm first), and the same list again changes nothing.
      const set: TestData = await callConfirmed(rt, USER.grace, "api_url_allowlist_set", {
        hosts: ["127.0.0.1", "API.Shop.Example"],
      });
      assert.equal(set.ok, true, JSON.stringify(set));
      assert.deepEqual(set.data, {
        hosts: ["127.0.0.1", "api.shop.example"],
        allow_private_network: true,
        changed: true,
      });
      const again: TestData = await callConfirmed(rt, USER.grace, "api_url_allowlist_set", {
        hosts: ["api.shop.example", "127.0.0.1"],
      });
      assert.equal(again.data.changed, false);
      const got: TestData = await rt.callAs(USER.grace, "api_url_allowlist_get", {});
      assert.deepEqual(got.data, {
        hosts: ["127.0.0.1", "api.shop.example"],
        allow_private_network: true,
      });
      // The settings' changes move the catalog version other instances poll.
      assert.notEqual(await rt.platform.runtimeTools.version(ORG.easymo), versionBefore);

      // Staff now register from the allowed host.
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "pets",
        kind: "openapi",
        url: `${api.url}/openapi.json`,
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));

      // The database holds the line without the tool: staff cannot write the row, an admin
      // cannot touch the private-network flag nor another org's row.
      const asUser = (user: string) => ({ sub: user, role: "authenticated" as const });
      await assert.rejects(
        db.asCaller(asUser(USER.jean), (tx) =>
          tx.query(
            "update public.api_source_settings set url_allowlist = '{evil.example}' where org_id = $1 returning 1",
            [ORG.easymo],
          ).then((rows) => {
            if (rows.length === 0) throw new Error("no row updated");
          })),
      );
      await assert.rejects(
        db.asCaller(asUser(USER.grace), (tx) =>
          tx.query(
            "update public.api_source_settings set allow_private_network = false where org_id = $1",
            [ORG.easymo],
          )),
        /permission denied/,
      );
      await assert.rejects(
        db.asCaller(asUser(USER.grace), (tx) =>
          tx.query(
            "insert into public.api_source_settings (org_id, url_allowlist) values ($1, '{evil.example}')",
            [ORG.beaver],
          )),
        /row-level security/,
      );
      const [row] = await db.query<{ url_allowlist: string[]; allow_private_network: boolean }>(
        "select url_allowlist, allow_private_network from public.api_source_settings where org_id = $1",
        [ORG.easymo],
      );
      assert.deepEqual(row, {
        url_allowlist: ["127.0.0.1", "api.shop.example"],
        allow_private_network: true,
      });
    });
  },
);
