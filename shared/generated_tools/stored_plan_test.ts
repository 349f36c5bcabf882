import assert from "node:assert/strict";
import { petstoreDocument } from "@testing/tenant_api_server.ts";
import { EXPORT_FORMATS, exportTools } from "@shared/export/export_tools.ts";
import { openapiPlans } from "./openapi.ts";
import { parseOpenapi } from "./openapi_validate.ts";
import { graphqlPlans, parseGraphqlSchema } from "./graphql.ts";
import { SHOP_SDL } from "@testing/api_corpus.ts";
import { z } from "zod";
import { presetJsonSchemaOf } from "@shared/export/json_schema.ts";
import { bindPlan, planExportKey, type SourceBinding } from "./bind.ts";
import { documentHash, GenerationError, type OperationPlan } from "./operation.ts";
import {
  asciiJson,
  loadPlans,
  openSignedPlans,
  PlanSignatureError,
  signPlans,
  storeAndLoadPlans,
  STORED_PLAN_VERSION,
  storePlans,
} from "./stored_plan.ts";
import { createCredentialBox } from "./credential_box.ts";
import { withZodRouteInput } from "@testing/zod_input_route.ts";

const BINDING: SourceBinding = {
  orgId: "org",
  source: "petstore",
  baseUrl: "https://pets.example.com",
  allowPrivateNetwork: false,
  credential: () => Promise.resolve(null),
};

function examplesOf(plans: OperationPlan[]): Map<string, Record<string, unknown>> {
  return new Map(plans.flatMap((plan) => {
    const tool = bindPlan(plan, BINDING);
    return tool.examples.length ? [[tool.name, tool.examples[0].input]] : [];
  }));
}

async function petstorePlans(): Promise<OperationPlan[]> {
  const parsed = await parseOpenapi(JSON.stringify(petstoreDocument("https://pets.example.com")));
  return openapiPlans(parsed, { source: "petstore", expose: ["getPet"] });
}

/** The pet store's plans with their inputs built by zod, as generation made them before. */
async function petstoreZodPlans(): Promise<OperationPlan[]> {
  const parsed = await parseOpenapi(JSON.stringify(petstoreDocument("https://pets.example.com")));
  return (await petstorePlans()).map((plan) => withZodRouteInput(plan, parsed.document));
}

Deno.test("loadPlans() gives back tools that export exactly as zod-built ones, in every dialect", async () => {
  const plans = await petstorePlans();
  // Through JSON, as the row holds them.
  const stored = JSON.parse(JSON.stringify(storePlans(plans, examplesOf(plans))));
  assert.equal(stored.v, STORED_PLAN_VERSION);
  // Where the listings drop zod's integer bounds is stored with each plan that has them (so the
  // exports below, equal to zod's route, come from those paths rather than a walk).
  const bounds = stored.plans.flatMap((plan: { bounds?: unknown[] }) => plan.bounds ?? []);
  assert.ok(bounds.length > 0);
  // Rows stored before the paths were (version 3) are mapped again from their document.
  assert.equal(loadPlans({ ...stored, v: 3 }, "petstore"), null);
  const loaded = loadPlans(stored, "petstore")!;
  // Compared with inputs built by zod, so every dialect's own route is taken on one side.
  const before = (await petstoreZodPlans()).map((plan) => bindPlan(plan, BINDING));
  const after = loaded.map((plan) => bindPlan(plan, BINDING));
  for (const format of EXPORT_FORMATS) {
    assert.deepEqual(exportTools(after, format), exportTools(before, format), format);
  }
  assert.deepEqual(after.map((tool) => tool.examples), before.map((tool) => tool.examples));
});

Deno.test("loadPlans() tools check input as the generated ones: constraints, formats, unknown fields", async () => {
  const plans = await petstorePlans();
  const [list, create] = loadPlans(storePlans(plans, examplesOf(plans)), "petstore")!;
  assert.equal(list.input.safeParse({ limit: 5 }).success, true);
  assert.equal(list.input.safeParse({ limit: 0 }).success, false);
  assert.equal(list.input.safeParse({ limit: 5, extra: 1 }).success, false);
  assert.equal(create.input.safeParse({ body: { name: "Kit", tag: "cat" } }).success, true);
  assert.equal(create.input.safeParse({ body: { name: "Kit", tag: "lion" } }).success, false);
  assert.equal(create.input.safeParse({ body: { name: "Kit", born: "yesterday" } }).success, false);
  assert.equal(create.input.safeParse({ body: { name: "Kit", born: "2020-01-01" } }).success, true);
  assert.equal(create.input.safeParse({}).success, false, "the body is required");
  const refused = create.input.safeParse({ body: { name: "Kit", colour: "red" } });
  assert.equal(refused.success, false);
  assert.deepEqual(refused.error!.issues[0].path, ["body"]);
});

Deno.test("loadPlans() keeps GraphQL plans: variables typed, query and field kept", () => {
  const schema = parseGraphqlSchema(
    "type Query { pet(id: ID!): Pet } type Pet { id: ID!, name: String, age: Int }",
  );
  const plans = graphqlPlans(schema, { source: "gql", expose: ["query.pet"] });
  const [pet] = loadPlans(JSON.parse(JSON.stringify(storePlans(plans, examplesOf(plans)))), "gql")!;
  assert.equal(pet.name, "gql_get_pet");
  assert.deepEqual(pet.send, plans[0].send);
  assert.equal(pet.input.safeParse({ id: "1" }).success, true);
  assert.equal(pet.input.safeParse({}).success, false);
  assert.equal(pet.input.safeParse({ id: "1", other: 2 }).success, false);
});

Deno.test("loadPlans() refuses a plan named outside its source, and hands back another version to be mapped again", async () => {
  const plans = await petstorePlans();
  const stored = storePlans(plans, examplesOf(plans));
  assert.throws(() => loadPlans(stored, "other"), GenerationError);
  const forged = structuredClone(stored);
  forged.plans[0].name = "send_message";
  assert.throws(() => loadPlans(forged, "petstore"), GenerationError);
  assert.equal(loadPlans({ ...stored, v: STORED_PLAN_VERSION + 1 }, "petstore"), null);
  assert.equal(loadPlans(null, "petstore"), null);
});

Deno.test("storePlans() names a tool whose example its stored schema would refuse", async () => {
  const plans = await petstorePlans();
  const examples = examplesOf(plans);
  examples.set("petstore_list_pets", { limit: 0 });
  assert.throws(() => storePlans(plans, examples), (error: unknown) => {
    assert.ok(error instanceof GenerationError);
    assert.match(error.issues[0].message, /petstore_list_pets/);
    return true;
  });
});

Deno.test("loadPlans() builds no check until a call needs one: listing a tool whose field cannot be built still works, and a call is refused naming the field", async () => {
  const plans = await petstorePlans();
  const stored = storePlans(plans, examplesOf(plans));
  // A row edited by hand so one field's schema cannot become a check.
  const edited = structuredClone(stored);
  const list = edited.plans[0];
  (list.input.properties as Record<string, unknown>).limit = { type: "no-such-type" };
  const [tool] = loadPlans(edited, "petstore")!.map((plan) => bindPlan(plan, BINDING));
  const listed = exportTools([tool], "mcp") as { tools: { inputSchema: unknown }[] };
  assert.deepEqual(
    (listed.tools[0].inputSchema as { properties: Record<string, unknown> }).properties.limit,
    { type: "no-such-type" },
  );
  // The first check that reads the field builds it, and only then refuses: a clear issue on
  // that field (VALIDATION_ERROR through the pipeline), never a throw inside the call.
  const checked = tool.input.safeParse({ limit: 1 });
  assert.equal(checked.success, false);
  assert.deepEqual(checked.error?.issues.map((issue) => issue.path), [["limit"]]);
  assert.match(checked.error?.issues[0].message ?? "", /stored definition is damaged/);
});

Deno.test("loadPlans() tools export to Gemini from the stored schema exactly as zod's 3.0 route does", async () => {
  // Keywords whose 2020-12 and OpenAPI 3.0 spellings differ: nullable (3.0 flag and 3.1 type
  // list), exclusive bounds, const, null, maps, several patterns, oneOf, allOf.
  const document = {
    openapi: "3.1.0",
    info: { title: "Kinds", version: "1" },
    servers: [{ url: "https://kinds.example.com" }],
    paths: {
      "/things": {
        post: {
          operationId: "makeThing",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["count"],
                  properties: {
                    count: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 100 },
                    label: { type: ["string", "null"] },
                    note: { type: ["string", "null"], maxLength: 20 },
                    kind: { const: "thing" },
                    nothing: { type: "null" },
                    tags: { type: "object", additionalProperties: { type: "string" } },
                    code: { type: "string", pattern: "^[A-Z]+$", minLength: 2 },
                    shape: {
                      oneOf: [
                        { type: "object", properties: { r: { type: "number" } } },
                        { type: "string", enum: ["square"] },
                      ],
                    },
                    owner: {
                      allOf: [
                        { type: "object", properties: { id: { type: "integer" } } },
                        { type: "object", properties: { name: { type: ["string", "null"] } } },
                      ],
                    },
                  },
                },
              },
            },
          },
          responses: { "200": { description: "ok" } },
        },
      },
    },
  };
  const parsed = await parseOpenapi(JSON.stringify(document));
  const plans = openapiPlans(parsed, { source: "kinds", expose: ["makeThing"] });
  const binding = { ...BINDING, source: "kinds" };
  const stored = JSON.parse(JSON.stringify(storePlans(plans, new Map())));
  const loaded = loadPlans(stored, "kinds")!.map((plan) => bindPlan(plan, binding));
  // zod's own 3.0 route: the inputs built by zod from the document, as generation did before.
  const generated = plans.map((plan) =>
    bindPlan(withZodRouteInput(plan, parsed.document), binding)
  );
  const fromStored = exportTools(loaded, "gemini");
  const fromZod = exportTools(generated, "gemini");
  // A nullable with constraints is spelled as a union with null from the stored schema (its
  // 2020-12 form is a union's): the same values, so compared apart.
  const note = (result: typeof fromStored) => {
    type Node = { properties: Record<string, Node> } & Record<string, unknown>;
    const parameters = (result.tools[0] as { parameters: Node }).parameters.properties.body
      .properties;
    const value = parameters.note;
    delete parameters.note;
    return value;
  };
  assert.deepEqual(note(fromStored), {
    anyOf: [{ maxLength: 20, type: "string" }, {
      description: "(one of null)",
      nullable: true,
      type: "string",
    }],
  });
  assert.deepEqual(note(fromZod), { maxLength: 20, nullable: true, type: "string" });
  assert.deepEqual(fromStored, fromZod);
  // The test means something only if those keywords reached the stored schema.
  const text = JSON.stringify(stored.plans[0].input);
  for (const keyword of ["exclusiveMinimum", '"const"', '"null"', "additionalProperties"]) {
    assert.ok(text.includes(keyword), keyword);
  }
});

Deno.test("loadPlans(): a stored open answer ({}) exports in every dialect exactly as zod's unknown did, without converting it per tool", () => {
  const plans = graphqlPlans(parseGraphqlSchema(SHOP_SDL), {
    source: "shop",
    expose: ["query.search", "mutation.placeOrder"],
  });
  const loaded = loadPlans(
    JSON.parse(JSON.stringify(storePlans(plans, examplesOf(plans)))),
    "shop",
  )!;
  const place = { orgId: "o", source: "shop", baseUrl: "https://shop.invalid" };
  const preset = loaded.map((plan) => bindPlan(plan, { ...BINDING, ...place }));
  // The old route: the same stored plans with a bare z.unknown() answer, converted by zod.
  const bare = loaded.map((plan) =>
    bindPlan({ ...plan, output: z.unknown() }, { ...BINDING, ...place })
  );
  for (const tool of preset) assert.deepEqual(presetJsonSchemaOf(tool.output), {});
  for (const format of EXPORT_FORMATS) {
    assert.deepEqual(
      JSON.parse(JSON.stringify(exportTools(preset, format))),
      JSON.parse(JSON.stringify(exportTools(bare, format))),
      format,
    );
  }
  assert.equal(preset[0].output.safeParse({ anything: [1] }).success, true);
});

Deno.test("storeAndLoadPlans() keeps the lazy input and output a plan was mapped with, and reads a zod-made one back from what is stored", async () => {
  const direct = await petstorePlans();
  const zodMade = await petstoreZodPlans();
  const maker = (plan: OperationPlan) => plan.example;
  const both = storeAndLoadPlans(
    [...direct, ...zodMade.map((plan) => ({ ...plan, name: `${plan.name}_z` }))],
    maker,
    "petstore",
  );
  const [loadedDirect, loadedZod] = [both.loaded[0], both.loaded[direct.length]];
  // The mapper's checks of the very schemas stored: no second zod object per tool.
  assert.equal(loadedDirect.input, direct[0].input);
  assert.equal(loadedDirect.output, direct[0].output);
  assert.equal(presetJsonSchemaOf(loadedDirect.input), both.stored.plans[0].input);
  // A zod-made input is built again from the stored schema, which later instances read.
  assert.notEqual(loadedZod.input, zodMade[0].input);
  assert.equal(presetJsonSchemaOf(loadedZod.input), both.stored.plans[direct.length].input);
  // Both check calls the same way.
  for (const value of [{ petId: 7 }, { petId: "seven" }, {}, { petId: 7, extra: 1 }]) {
    assert.equal(
      loadedDirect.input.safeParse(value).success,
      loadedZod.input.safeParse(value).success,
      JSON.stringify(value),
    );
  }
});

Deno.test("tools bound from one document's plans share their exports across tenants and registrations; another document's do not", async () => {
  const plans = await petstorePlans();
  const stored = JSON.parse(JSON.stringify(storePlans(plans, examplesOf(plans))));
  const key = planExportKey("openapi", `hash-${crypto.randomUUID()}`, STORED_PLAN_VERSION);
  // Registration's check (its placeholder binding) and another tenant's sync of the stored row.
  const registered = storeAndLoadPlans(plans, (plan) => plan.example, "petstore").loaded
    .map((plan) => bindPlan(plan, { ...BINDING, baseUrl: "https://api.invalid", exportKey: key }));
  const synced = loadPlans(stored, "petstore")!
    .map((plan) => bindPlan(plan, { ...BINDING, orgId: "other", exportKey: key }));
  for (const format of ["jsonschema", "anthropic", "gemini"] as const) {
    const a = exportTools(registered, format);
    const b = exportTools(synced, format);
    a.tools.forEach((tool, index) => assert.equal(b.tools[index], tool, format));
  }
  // Plans of another document are converted on their own, to the same result here.
  const elsewhere = loadPlans(stored, "petstore")!.map((plan) =>
    bindPlan(plan, { ...BINDING, exportKey: planExportKey("openapi", "another", 1) })
  );
  const gemini = exportTools(elsewhere, "gemini");
  assert.notEqual(gemini.tools[0], exportTools(registered, "gemini").tools[0]);
  assert.deepEqual(gemini, exportTools(registered, "gemini"));
});

Deno.test("openSignedPlans() reads plans signed now and rows signed as version 1, and refuses either changed", async () => {
  const box = await createCredentialBox("stored-plan-test-key-".repeat(2));
  const stored = storePlans(
    openapiPlans(await parseOpenapi(JSON.stringify(petstoreDocument("https://x.example.com"))), {
      source: "pets",
    }),
    new Map(),
  );
  const scope = {
    orgId: "org-1",
    name: "pets",
    kind: "openapi",
    documentHash: "a".repeat(64),
    baseUrl: "https://x.example.com",
    expose: [],
  };
  const signed = await signPlans(stored, scope, box);
  assert.equal(await openSignedPlans(structuredClone(signed), scope, box), signed.text);
  // A row signed before: the text inside the signed JSON.
  const v1Data = JSON.stringify([
    "easymo.generated_tools.plans",
    1,
    scope.orgId,
    scope.name,
    scope.kind,
    scope.documentHash,
    scope.baseUrl,
    scope.expose,
    signed.text,
  ]);
  const v1 = { ...signed, signed: 1, sig: await box.sign(v1Data) };
  assert.equal(await openSignedPlans(v1, scope, box), signed.text);
  for (
    const changed of [
      { ...signed, text: signed.text.replace("pets_", "pets_x") },
      { ...v1, text: signed.text.replace("pets_", "pets_x") },
      // One version's signature under the other's name.
      { ...signed, signed: 1 },
      { ...v1, signed: signed.signed },
    ]
  ) {
    await assert.rejects(openSignedPlans(changed, scope, box), PlanSignatureError);
  }
  await assert.rejects(
    openSignedPlans(signed, { ...scope, baseUrl: "http://127.0.0.1" }, box),
    PlanSignatureError,
  );
});

Deno.test("signPlans() stores ASCII text that reads back as the same plans, and rows holding UTF-8 text still open", async () => {
  const box = await createCredentialBox("stored-plan-test-key-".repeat(2));
  const document = petstoreDocument("https://x.example.com");
  // Descriptions as APIs write them: dashes, quotes, accents, an emoji (a surrogate pair), DEL.
  const said = "Liste des animaux — « chats » et ’chiens’, café 😀 \u007f fin";
  (document.paths as Record<string, { get: { description?: string } }>)["/pets"].get
    .description = said;
  const stored = storePlans(
    openapiPlans(await parseOpenapi(JSON.stringify(document)), { source: "pets" }),
    new Map(),
  );
  assert.ok(stored.plans.some((plan) => plan.description.includes("😀")));
  const scope = {
    orgId: "org-1",
    name: "pets",
    kind: "openapi",
    documentHash: "b".repeat(64),
    baseUrl: "https://x.example.com",
    expose: [],
  };
  const signed = await signPlans(stored, scope, box);
  assert.doesNotMatch(signed.text, /[\u007f-\uffff]/, "no character past U+007E");
  assert.deepEqual(JSON.parse(await openSignedPlans(signed, scope, box)), stored);
  // A row signed before this held the UTF-8 text JSON.stringify writes: it opens as it is.
  const utf8 = JSON.stringify(stored);
  assert.notEqual(utf8, signed.text);
  const header = [
    "easymo.generated_tools.plans",
    signed.signed,
    scope.orgId,
    scope.name,
    scope.kind,
    scope.documentHash,
    scope.baseUrl,
    scope.expose,
  ];
  const older = {
    ...signed,
    text: utf8,
    sig: await box.sign(`${JSON.stringify(header)}\n${await documentHash(utf8)}`),
  };
  assert.equal(await openSignedPlans(older, scope, box), utf8);
  assert.equal(asciiJson('{"a":"\\\\é\\"ü"}'), '{"a":"\\\\\\u00e9\\"\\u00fc"}');
  assert.deepEqual(JSON.parse(asciiJson('{"a":"\\\\é\\"ü"}')), { a: '\\é"ü' });
});
