import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import {
  allowTenantApiOnLoopback,
  PET_API_KEY,
  petstoreDocument,
  startTenantApi,
} from "@testing/tenant_api_server.ts";
import { zodToJsonSchema } from "@shared/export/json_schema.ts";
import { inputHolds, lazyInput, plainHolds } from "./lazy_input.ts";
import { openapiPlans } from "./openapi.ts";
import { parseOpenapi } from "./openapi_validate.ts";

Deno.test("lazyInput() builds a field's check on its first use only, once, and lists the schema it was given", () => {
  const reads: string[] = [];
  const properties = new Proxy({
    name: { type: "string", const: "Kit" },
    age: { type: "integer", minimum: 0 },
  } as Record<string, unknown>, {
    get(target, key) {
      if (typeof key === "string") reads.push(key);
      return Reflect.get(target, key);
    },
  });
  const json = { type: "object", properties, required: ["name"], additionalProperties: false };
  const input = lazyInput(json, "t_tool");
  assert.deepEqual(reads, [], "nothing built when made");
  assert.equal(inputHolds(input, json, { name: "Kit" }), true);
  assert.equal(inputHolds(input, json, { name: "" }), false);
  // Each example check looks at the field's schema once; a const needs the built check.
  assert.deepEqual(reads, ["name", "name", "name"], "only the example's field built, once");
  // A bare integer with a bound is decided without building its check.
  assert.equal(inputHolds(input, json, { name: "Kit", age: 3 }), true);
  assert.equal(inputHolds(input, json, { name: "Kit", age: -1 }), false);
  assert.deepEqual(reads.slice(3), ["name", "age", "name", "age"], "age looked at, not built");
  reads.length = 0;
  assert.equal(input.safeParse({ name: "Kit", age: 3 }).success, true);
  assert.equal(input.safeParse({ name: "Kit", age: -1 }).success, false);
  assert.deepEqual(reads, ["age"], "each built once, then kept");
  assert.equal(zodToJsonSchema(input, { io: "input" }), json, "listed as given");
});

Deno.test("lazyInput() builds each field once when many calls parse at the same time, and names the field in a refusal", async () => {
  const reads: string[] = [];
  const properties = new Proxy({
    name: { type: "string", minLength: 1 },
    tags: { type: "array", items: { type: "string", maxLength: 3 } },
  } as Record<string, unknown>, {
    get(target, key) {
      if (typeof key === "string") reads.push(key);
      return Reflect.get(target, key);
    },
  });
  const json = { type: "object", properties, required: ["name"], additionalProperties: false };
  const input = lazyInput(json, "t_tool");
  const results = await Promise.all(
    Array.from(
      { length: 20 },
      (_, index) =>
        input.safeParseAsync(
          index % 2 ? { name: "Kit", tags: ["a"] } : { name: "Kit", tags: ["long"] },
        ),
    ),
  );
  assert.deepEqual(reads.toSorted(), ["name", "tags"], "each field built once");
  assert.equal(results.filter((result) => result.success).length, 10);
  const refused = results.find((result) => !result.success);
  assert.deepEqual(refused?.error?.issues[0].path, ["tags", 0]);
});

Deno.test("inputHolds() decides as the strict object's parse: required, unknown and bad fields", async () => {
  const parsed = await parseOpenapi(JSON.stringify(petstoreDocument("https://pets.example.com")));
  const [list, create] = openapiPlans(parsed, { source: "petstore" });
  const cases: [typeof list, Record<string, unknown>][] = [
    [list, {}],
    [list, { limit: 5 }],
    [list, { limit: 0 }],
    [list, { limit: 5, extra: 1 }],
    [create, {}],
    [create, { body: { name: "Kit" } }],
    [create, { body: { name: "Kit", tag: "lion" } }],
    [create, { body: { name: "" } }],
    [create, { body: undefined }],
  ];
  for (const [plan, value] of cases) {
    const json = zodToJsonSchema(plan.input, { io: "input" });
    assert.equal(
      inputHolds(plan.input, json, value),
      plan.input.safeParse(value).success,
      `${plan.name} ${JSON.stringify(value)}`,
    );
  }
});

dbTest(
  "generated tools: a check built lazily on the first call still refuses bad input with VALIDATION_ERROR naming the field's path, before any request",
  async (db) => {
    const api = startTenantApi();
    const rt = await createTestRuntime(db);
    try {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const set: TestData = await callConfirmed(rt, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      assert.equal(set.ok, true, JSON.stringify(set));
      const refusals: [Record<string, unknown>, string][] = [
        [{ body: { name: "Kit", tag: "lion" } }, "body.tag"],
        [{ body: { name: "Kit", born: "yesterday" } }, "body.born"],
        [{ body: { name: "" } }, "body.name"],
        [{ body: { name: "Kit", friends: "none" } }, "body.friends"],
        [{ body: { name: "Kit" }, extra: 1 }, ""],
        [{}, "body"],
      ];
      for (const [args, path] of refusals) {
        const refused: TestData = await rt.callAs(USER.jean, "petstore_create_pet", args, {
          idempotencyKey: crypto.randomUUID(),
        });
        assert.equal(refused.ok, false, JSON.stringify(args));
        assert.equal(refused.error.code, "VALIDATION_ERROR", JSON.stringify(refused));
        assert.ok(
          refused.error.fields.some((field: { path: string }) => field.path === path),
          `${JSON.stringify(args)}: ${JSON.stringify(refused.error.fields)}`,
        );
      }
      const limit: TestData = await rt.callAs(USER.jean, "petstore_list_pets", { limit: 0 });
      assert.equal(limit.error?.code, "VALIDATION_ERROR");
      assert.equal(limit.error.fields[0].path, "limit");
      assert.equal(api.requests.length, 0, "no bad input reached the API");
      // The same checks let good input through.
      const made: TestData = await rt.callAs(USER.jean, "petstore_create_pet", {
        body: { name: "Kit", tag: "cat", born: "2020-01-01" },
      }, { idempotencyKey: "lazy-kit-1" });
      assert.equal(made.ok, true, JSON.stringify(made));
      assert.equal(api.requests.length, 1);
    } finally {
      await api.close();
      await rt.platform.traces.flush();
    }
  },
);

Deno.test("plainHolds() decides type lists with null, unions of bare types and strings with lengths, patterns and formats as their built check, and leaves the rest to it", () => {
  const id = {
    anyOf: [{ type: "string" }, { type: "integer", minimum: 0, maximum: 9 }],
    description: "ID",
  };
  const fields: Record<string, unknown> = {
    note: { type: ["string", "null"] },
    count: { type: ["integer", "null"], minimum: 1 },
    id,
    maybeId: { anyOf: [id, { type: "null" }] },
    ids: { type: "array", items: id },
    input: {
      type: "object",
      properties: { tag: { type: ["string", "null"] }, id },
      required: ["id"],
      additionalProperties: false,
    },
    // Strings' lengths, patterns and formats; a number's format is a note.
    login: { type: "string", pattern: "^[a-z]+$", minLength: 2, maxLength: 4 },
    mail: { anyOf: [{ type: "string", format: "email" }, { type: "null" }] },
    day: { type: ["string", "null"], format: "date" },
    // A checked format wins over a pattern beside it, as the zod route builds it.
    stamp: { type: "string", format: "date-time", pattern: "^x" },
    // An unchecked format is a plain string, and its pattern is checked.
    ref: { type: "string", format: "git-ref", pattern: "^m" },
    size: { type: "integer", format: "int32", minimum: 0 },
  };
  const json = { type: "object", properties: fields, additionalProperties: false };
  const built = lazyInput(json, "t_tool", { eager: true }).shape;
  const samples = [
    null,
    "x",
    "ab",
    "abcde",
    "A1",
    "main",
    "ann@example.com",
    "2020-01-01",
    "2020-01-01T10:00:00Z",
    0,
    3,
    12,
    -1,
    2.5,
    true,
    [],
    ["a", 4],
    [20],
    {},
    { id: "a" },
    {
      id: 3,
      tag: null,
    },
    { id: 3, tag: 1 },
    { tag: "x" },
    { id: "a", other: 1 },
  ];
  let decided = 0;
  for (const [key, schema] of Object.entries(fields)) {
    for (const sample of samples) {
      const plain = plainHolds(schema, sample);
      assert.notEqual(plain, undefined, `${key} ${JSON.stringify(sample)} is decided`);
      assert.equal(plain, built[key].safeParse(sample).success, `${key} ${JSON.stringify(sample)}`);
      decided++;
    }
  }
  assert.equal(decided, Object.keys(fields).length * samples.length);
  // Left to the built check: a list of null alone (zod's open value), a union beside a type, a
  // type list with an enum, a pattern that is no regex, string keywords on other types, a format
  // only the prototype has, a string enum with a pattern.
  for (
    const schema of [
      { type: ["null"] },
      { type: "string", anyOf: [{ type: "string" }] },
      { type: ["string", "null"], enum: ["a"] },
      { type: "string", pattern: "([a-" },
      { type: "object", format: "email", properties: {} },
      { type: "boolean", format: "flag" },
      { type: "integer", pattern: "^1" },
      { type: "string", format: "toString" },
      { type: "string", enum: ["a"], pattern: "^a" },
    ]
  ) assert.equal(plainHolds(schema, "a"), undefined, JSON.stringify(schema));
});
