import assert from "node:assert/strict";
import { openapi30Yaml, openapi31Document, swagger2Document } from "@testing/api_corpus.ts";
import { petstoreDocument } from "@testing/tenant_api_server.ts";
import { zodRouteInputSchema } from "@testing/zod_input_route.ts";
import { zodToJsonSchema } from "@shared/export/json_schema.ts";
import { openapiInputFields, openapiPlans, type ParsedOpenapi } from "./openapi.ts";
import { parseOpenapi } from "./openapi_validate.ts";
import { lazyInput, plainHolds } from "./lazy_input.ts";
import { exampleFromSchema, resolvePointer, SchemaMappingError } from "./json_schema_zod.ts";
import { lenientOutputSchema } from "./output_schema.ts";
import { inputJsonSchema, inputObjectSchema } from "./input_schema.ts";

// Read, not imported: imported, `deno check` infers a type for all 13 MB of it (~3.5 CPU-s of CI's
// check job). The package is in deno.json's imports, so node_modules holds it.
const github: { openapi: string } = JSON.parse(
  await Deno.readTextFile(
    new URL(import.meta.resolve("@octokit/openapi/generated/api.github.com.json")),
  ),
);

type Node = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "patch", "head"];
const API = "https://api.example.com";

/** Every operation's id (operationId, or method and path), to expose them all. */
function operationIds(document: Node): string[] {
  const ids: string[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Node>)) {
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      ids.push(
        typeof operation.operationId === "string" ? operation.operationId : `${method} ${path}`,
      );
    }
  }
  return ids;
}

/** Keywords the corpus documents do not all have: formats beside patterns, bounds, maps, cycles. */
const KEYWORDS: Node = {
  openapi: "3.0.3",
  info: { title: "Keywords", version: "1" },
  paths: {
    "/things/{id}": {
      parameters: [
        { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
      ],
      post: {
        operationId: "makeThing",
        parameters: [
          {
            name: "when",
            in: "query",
            description: "  A   time ",
            schema: { type: "string", format: "date-time" },
          },
          {
            name: "mail",
            in: "header",
            schema: { type: "string", format: "email", pattern: "^a", minLength: 3 },
          },
          {
            name: "site",
            in: "query",
            schema: { type: "string", format: "uri", pattern: "^https://" },
          },
          { name: "at", in: "query", schema: { type: "string", format: "time", pattern: "^1" } },
          { name: "body", in: "query", schema: { type: "integer", minimum: -1e20, maximum: 10 } },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        required: ["count", "kind", "modes"],
        properties: {
          count: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 9, multipleOf: 3 },
          ratio: { type: "number", exclusiveMaximum: true, maximum: 1, nullable: true },
          kind: { type: "string", enum: ["b", "a", "100", "2", "b"] },
          modes: { type: "array", items: { enum: [1, 2, null] }, minItems: 1, maxItems: 3 },
          flag: { enum: [true] },
          mixed: { enum: [1, "one", false] },
          nothing: { enum: [null] },
          constant: { type: "string", title: "Always x", default: "x", enum: ["x"] },
          either: { oneOf: [{ type: "string" }, { type: "boolean" }], nullable: true },
          any: {},
          never: { not: {} },
          labels: { type: "object", additionalProperties: { type: "string", maxLength: 5 } },
          open: {
            type: "object",
            additionalProperties: true,
            properties: { a: { type: "string" } },
          },
          empty: { type: "object" },
          parent: { $ref: "#/components/schemas/Thing" },
          server: { type: "string", readOnly: true },
          ip: { type: "string", format: "ipv4" },
          ip6: { type: "string", format: "ipv6" },
          day: { type: "string", format: "date" },
          link: { type: "string", format: "url" },
          unknown: { type: "string", format: "credit-card" },
          // Several patterns as the document may spell them: an allOf of patterns on a string.
          code: { type: "string", allOf: [{ pattern: "^a" }, { pattern: "b$" }] },
          dated: { type: "string", format: "date", allOf: [{ pattern: "^2" }], maxLength: 10 },
          counts: {
            type: "object",
            properties: { a: { type: "string" } },
            additionalProperties: { type: "integer" },
          },
          bounded: { type: "integer", minimum: 3, exclusiveMinimum: true, maximum: 1e30 },
          secret: { type: "string", writeOnly: true, default: "s" },
          composed: {
            allOf: [
              { type: "object", properties: { x: { type: "integer" } }, required: ["x"] },
              { type: "object", properties: { y: { type: "string", nullable: true } } },
            ],
          },
        },
      },
    },
  },
};

/** OpenAPI 3.1's own spellings: `const`, type lists, numeric exclusive bounds, a cyclic list. */
const KEYWORDS_31: Node = {
  openapi: "3.1.0",
  info: { title: "Keywords 3.1", version: "1" },
  paths: {
    "/nodes": {
      post: {
        operationId: "makeNode",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      Node: {
        type: "object",
        required: ["kind"],
        properties: {
          kind: { const: "node" },
          none: { const: null },
          shape: { type: ["object", "null"], properties: { a: { type: "string" } } },
          either: { type: ["string", "integer", "null"], minimum: 1 },
          bounded: { type: "integer", minimum: 3, exclusiveMinimum: 5, exclusiveMaximum: 9 },
          children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
          choice: {
            oneOf: [{ type: "string", format: "uuid" }, {
              type: "object",
              properties: { id: { type: "integer" } },
            }, { type: "null" }],
          },
          tags: { type: "string", allOf: [{ pattern: "^t" }, { pattern: "s$" }] },
        },
      },
    },
  },
};

async function corpus(): Promise<[string, ParsedOpenapi][]> {
  return [
    ["pet store", await parseOpenapi(JSON.stringify(petstoreDocument(API)))],
    ["Swagger 2.0 upgraded", await parseOpenapi(JSON.stringify(swagger2Document(API)))],
    ["OpenAPI 3.0 YAML", await parseOpenapi(openapi30Yaml(API))],
    ["OpenAPI 3.1", await parseOpenapi(JSON.stringify(openapi31Document(API)))],
    ["keywords", await parseOpenapi(JSON.stringify(KEYWORDS))],
    ["keywords 3.1", await parseOpenapi(JSON.stringify(KEYWORDS_31))],
    // GitHub's document in full (1,221 operations; over the registration limit, so read as is).
    ["GitHub", { document: github as unknown as Node, version: String(github.openapi) }],
  ];
}

/** Values the quick example check is compared on: every kind, bounds and edges. */
const SAMPLES = [
  "x",
  "",
  // Strings for formats, patterns and lengths.
  "2020-01-01",
  "2020-01-01T10:00:00Z",
  "2020-01-01T10:00:00",
  "10:00:00",
  "ann@example.com",
  "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  "https://example.com/a",
  "127.0.0.1",
  "::1",
  "octocat",
  "main",
  "-x",
  "a".repeat(300),
  "é",
  "asc",
  "open",
  0,
  1,
  -1,
  1.5,
  100,
  101,
  Number.MAX_SAFE_INTEGER + 2,
  Infinity,
  NaN,
  true,
  null,
  [],
  {},
];

/** A schema's example, and it with a required key dropped, an unknown key and an item too many. */
function examplesOf(schema: unknown, root: unknown): unknown[] {
  const example = exampleFromSchema(schema, root);
  if (!example || typeof example !== "object") return [example];
  if (Array.isArray(example)) return [example, [...example, ...example], [], [null]];
  const record = example as Node;
  const [first] = Object.keys(record);
  const { [first]: _dropped, ...rest } = record;
  return [example, rest, { ...record, surprise: 1 }, { ...record, [first]: [] }];
}

Deno.test("inputObjectSchema(): each generated input's JSON Schema, made straight from the document, equals what zod's route wrote, over a corpus of documents; plainHolds() decides as the built checks do", async () => {
  let compared = 0;
  let plainDecided = 0;
  let plainObjects = 0;
  for (const [label, parsed] of await corpus()) {
    // GitHub's 1,221 operations: every third, to keep the suite quick (all of them compare equal
    // too: 1,221 of 1,221 when this was written).
    const ids = operationIds(parsed.document).filter((_, index) =>
      label !== "GitHub" || index % 3 === 0
    );
    // Operations with a multipart or binary body are refused by name, as a tenant would see.
    const mappable = ids.filter((id) => {
      try {
        return openapiInputFields(parsed.document, id) !== undefined;
      } catch {
        return false;
      }
    });
    assert.ok(mappable.length >= Math.min(ids.length, 2), `${label}: ${mappable.length}`);
    for (let start = 0; start < mappable.length; start += 500) {
      const plans = openapiPlans(parsed, {
        source: "t",
        expose: mappable.slice(start, start + 500),
      });
      for (const plan of plans) {
        const direct = zodToJsonSchema(plan.input, { io: "input" });
        const fields = openapiInputFields(parsed.document, plan.origin)!;
        assert.deepEqual(
          direct,
          zodRouteInputSchema(fields, parsed.document),
          `${label}: ${plan.origin}`,
        );
        // Every field's check can be built from it (a call never meets a refusing placeholder).
        const eager = lazyInput(direct, plan.name, { eager: true });
        const properties = direct.properties as Node;
        for (const key of Object.keys(eager.shape)) {
          assert.ok(eager.shape[key], `${plan.name}.${key}`);
          // Where the examples' quick check answers, it answers as the built check does: on
          // values of every kind, the field's own example, and that example broken.
          for (const sample of [...SAMPLES, ...examplesOf(properties[key], direct)]) {
            const plain = plainHolds(properties[key], sample);
            if (plain === undefined) continue;
            plainDecided++;
            if ((properties[key] as Node).type === "object") plainObjects++;
            assert.equal(
              plain,
              eager.shape[key].safeParse(sample).success,
              `${plan.name}.${key} ${JSON.stringify(properties[key])} ${String(sample)}`,
            );
          }
        }
        compared++;
      }
    }
  }
  assert.ok(compared > 400, `${compared} operations compared`);
  assert.ok(plainDecided > 1000, `${plainDecided} quick verdicts compared`);
  assert.ok(plainObjects > 50, `${plainObjects} quick verdicts on bodies compared`);
});

Deno.test("inputJsonSchema() refuses what zod's route refused, naming the pointer", () => {
  const root = { components: {} };
  const cases: [unknown, RegExp][] = [
    [{ $ref: "#/components/schemas/Missing" }, /is not in the document/],
    [{ type: "string", pattern: "([a-" }, /not a valid regex/],
    [{ type: "file" }, /Cannot map type "file"/],
    [["not", "a", "schema"], /not an object/],
  ];
  for (const [schema, message] of cases) {
    assert.throws(
      () => inputJsonSchema(schema, "#/paths/~1x/get/parameters/0/schema", { root }),
      (error) => {
        assert.ok(error instanceof SchemaMappingError);
        assert.equal(error.pointer, "#/paths/~1x/get/parameters/0/schema");
        assert.match(error.message, message);
        return true;
      },
    );
  }
});

Deno.test("a string with a checked format and a pattern is checked against both once stored (zod writes them as an allOf of patterns)", () => {
  const json = {
    type: "object",
    properties: {
      mail: inputJsonSchema({ type: "string", format: "email", pattern: "^a" }, "#/mail", {
        root: {},
      }),
    },
    required: ["mail"],
    additionalProperties: false,
  };
  assert.ok(Array.isArray(json.properties.mail.allOf), JSON.stringify(json.properties.mail));
  // As another instance reads it: from the stored text.
  const input = lazyInput(JSON.parse(JSON.stringify(json)), "t_tool", { eager: true });
  assert.equal(input.safeParse({ mail: "ann@example.com" }).success, true);
  assert.equal(input.safeParse({ mail: "bob@example.com" }).success, false, "the pattern");
  assert.equal(input.safeParse({ mail: "ann" }).success, false, "the format");
});

Deno.test("lenientOutputSchema() gives the same answers' schemas reusing a reference's expansion across a document as making each afresh, over the corpus and GitHub's operations", async () => {
  let compared = 0;
  for (const [label, parsed] of await corpus()) {
    const root = parsed.document;
    for (const [path, item] of Object.entries(root.paths as Record<string, Node>)) {
      for (const method of METHODS) {
        const responses = (item[method] as Node | undefined)?.responses as Node | undefined;
        for (const [code, raw] of Object.entries(responses ?? {})) {
          let response = raw as Node;
          if (typeof response.$ref === "string") {
            response = resolvePointer(root, response.$ref) as Node;
          }
          for (const [media, content] of Object.entries((response?.content ?? {}) as Node)) {
            const schema = (content as Node)?.schema;
            if (schema === undefined) continue;
            const pointer = `#/paths/${path}/${method}/responses/${code}/content/${media}`;
            const fresh = (reuse: boolean) => {
              try {
                return lenientOutputSchema(schema, pointer, { root, reuse });
              } catch (error) {
                return String(error);
              }
            };
            const afresh = fresh(false);
            assert.deepEqual(fresh(true), afresh, `${label}: ${pointer}`);
            compared++;
          }
        }
      }
    }
  }
  assert.ok(compared > 1000, `${compared} answers compared`);
});

Deno.test("a union's inline branches keep what their parent puts beside it: its type, and an object's properties", () => {
  const event = {
    type: "string",
    maxLength: 8,
    oneOf: [{ description: "one" }, { description: "two", pattern: "^t" }],
  };
  const payment = {
    type: "object",
    properties: {
      amount: { type: "integer" },
      phone: { type: "string" },
      card: { type: "string" },
    },
    oneOf: [{ required: ["phone"] }, {
      required: ["card"],
      properties: { cvv: { type: "string" } },
    }],
  };
  const fields = [
    { key: "event", schema: event, pointer: "#/event", description: "", required: true },
    { key: "payment", schema: payment, pointer: "#/payment", description: "", required: true },
  ];
  const direct = inputObjectSchema(fields, {});
  // Both routes agree.
  assert.deepEqual(direct, zodRouteInputSchema(fields, {}));
  const input = lazyInput(direct, "test");
  const holds = (value: Record<string, unknown>) => input.safeParse(value).success;
  assert.equal(holds({ event: "t1", payment: { amount: 5, phone: "0788" } }), true);
  assert.equal(holds({ event: "t1", payment: { amount: 5, card: "4111", cvv: "1" } }), true);
  // Before, the branches were `{}`: a number passed as the event, and any object as the payment.
  assert.equal(holds({ event: 5, payment: { phone: "0788" } }), false);
  assert.equal(holds({ event: "t-too-long", payment: { amount: 5, phone: "0788" } }), false);
  assert.equal(holds({ event: "t1", payment: { amount: "five", phone: "0788" } }), false);
  assert.equal(holds({ event: "t1", payment: { amount: 5 } }), false);
});

Deno.test("a pattern valid only as a legacy JavaScript regex is left to the API, not refused with the whole document; a Unicode one is still checked", () => {
  const fields = [
    // A literal "{" and "\_": fine in Java, Python or legacy JavaScript, not in Unicode mode.
    {
      key: "guid",
      schema: { type: "string", pattern: "^(?:{[0-9a-f]{8}}|[0-9a-f]{8})$" },
      pointer: "#/guid",
      description: "",
      required: false,
    },
    {
      key: "slug",
      schema: { type: "string", pattern: "^[a-z\\_]+$", maxLength: 5 },
      pointer: "#/slug",
      description: "",
      required: false,
    },
    {
      key: "code",
      schema: { type: "string", pattern: "^[A-Z]{2}$" },
      pointer: "#/code",
      description: "",
      required: false,
    },
  ];
  const direct = inputObjectSchema(fields, {});
  assert.deepEqual(direct, zodRouteInputSchema(fields, {}));
  const properties = direct.properties as Record<string, Record<string, unknown>>;
  assert.equal(properties.guid.pattern, undefined);
  assert.deepEqual(properties.slug, { type: "string", maxLength: 5 });
  assert.equal(properties.code.pattern, "^[A-Z]{2}$");
  const input = lazyInput(direct, "test");
  assert.equal(input.safeParse({ guid: "{0123abcd}", slug: "a_b", code: "RW" }).success, true);
  assert.equal(input.safeParse({ code: "rw" }).success, false);
  assert.equal(input.safeParse({ slug: "toolong" }).success, false);
});

Deno.test("an allOf of one scalar type (a refinement, as schema builders write it) is that type with the strictest bounds, every pattern and the common enum values", () => {
  const fields = [
    {
      key: "label",
      schema: { allOf: [{ type: "string" }, { type: "string", minLength: 1 }] },
      pointer: "#/label",
      description: "",
      required: true,
    },
    {
      key: "code",
      schema: {
        description: "A district code",
        allOf: [
          { type: "string", maxLength: 6, pattern: "^[A-Z]" },
          { type: "string", maxLength: 4, pattern: "[0-9]$", enum: ["KG01", "KG02", "MUS1"] },
          { enum: ["KG01", "MUS1", "NYA1"] },
        ],
      },
      pointer: "#/code",
      description: "",
      required: false,
    },
    {
      key: "seats",
      schema: { allOf: [{ type: "number", minimum: 1 }, { type: "integer", maximum: 8 }] },
      pointer: "#/seats",
      description: "",
      required: false,
    },
  ];
  const direct = inputObjectSchema(fields, {});
  assert.deepEqual(direct, zodRouteInputSchema(fields, {}));
  const input = lazyInput(direct, "test");
  const holds = (value: Record<string, unknown>) => input.safeParse(value).success;
  assert.equal(holds({ label: "Kigali", code: "KG01", seats: 8 }), true);
  assert.equal(holds({ label: "" }), false);
  assert.equal(holds({ label: 5 }), false);
  assert.equal(holds({ label: "a", code: "KG02" }), false, "not in every part's enum");
  assert.equal(holds({ label: "a", seats: 1.5 }), false);
  assert.equal(holds({ label: "a", seats: 9 }), false);
});
