import assert from "node:assert/strict";
import { petstoreDocument } from "@testing/tenant_api_server.ts";
import { EXPORT_FORMATS, exportTools } from "@shared/export/export_tools.ts";
import { openapiPlans } from "./openapi.ts";
import { parseOpenapi } from "./openapi_validate.ts";
import { graphqlPlans, parseGraphqlSchema } from "./graphql.ts";
import { bindPlan, type SourceBinding } from "./bind.ts";
import { GenerationError, type OperationPlan } from "./operation.ts";
import { loadPlans, STORED_PLAN_VERSION, storePlans } from "./stored_plan.ts";

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

Deno.test("loadPlans() gives back tools that export exactly as the generated ones, in every dialect", async () => {
  const plans = await petstorePlans();
  // Through JSON, as the row holds them.
  const stored = JSON.parse(JSON.stringify(storePlans(plans, examplesOf(plans))));
  assert.equal(stored.v, STORED_PLAN_VERSION);
  const loaded = loadPlans(stored, "petstore")!;
  const before = plans.map((plan) => bindPlan(plan, BINDING));
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
