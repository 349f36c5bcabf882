import assert from "node:assert/strict";
import { buildSchema, getIntrospectionQuery, graphqlSync, parse, validate } from "graphql";
import { schema as githubGraphql } from "@octokit/graphql-schema";
import { SHOP_SDL } from "@testing/api_corpus.ts";
import { zodRouteGraphqlInput, zodRouteGraphqlInputSchema } from "@testing/zod_graphql_route.ts";
import { zodToJsonSchema } from "@shared/export/json_schema.ts";
import { graphqlInputSchema, graphqlPlans, parseGraphqlSchema, schemaText } from "./graphql.ts";
import { exampleFromSchema } from "./json_schema_zod.ts";
import { lazyInput, plainHolds } from "./lazy_input.ts";

// A schema of shapes the pet store does not have: unions and interfaces in results, lists of
// lists, custom scalars, input objects, enums, required and defaulted arguments, a mutation.
const SDL = `
scalar DateTime
enum Status { OPEN PAID CANCELLED }
interface Node { id: ID! }
type Product implements Node { id: ID! title: String! price: Float tags: [String!] }
type Order implements Node {
  id: ID! status: Status! placedAt: DateTime lines: [Line!]! grid: [[Int!]!]!
  customer(withEmail: Boolean!): Customer
}
type Line { product: Product! quantity: Int! }
type Customer { name: String }
union SearchResult = Product | Order
input LineInput { productId: ID! quantity: Int! }
input OrderInput { lines: [LineInput!]! note: String placedAt: DateTime }
type Query {
  search(text: String!, first: Int = 10): [SearchResult!]!
  node(id: ID!): Node
  orders(status: Status, matrix: [[Int!]]): [Order!]!
}
type Mutation { placeOrder(order: OrderInput!): Order! }
`;

const EXPOSE = ["query.search", "query.node", "query.orders", "mutation.placeOrder"];

Deno.test("graphqlPlans() selects unions and interfaces with __typename and inline fragments, valid against the schema", () => {
  const schema = buildSchema(SDL);
  const plans = graphqlPlans(parseGraphqlSchema(SDL), { source: "shop", expose: EXPOSE });
  assert.deepEqual(plans.map((plan) => plan.name), [
    "shop_get_search",
    "shop_get_node",
    "shop_get_orders",
    "shop_place_order",
  ]);
  for (const plan of plans) {
    assert.equal(plan.send.kind, "graphql");
    if (plan.send.kind !== "graphql") continue;
    const errors = validate(schema, parse(plan.send.query));
    assert.deepEqual(errors.map((error) => error.message), [], plan.send.query);
  }
  const search = plans[0].send.kind === "graphql" ? plans[0].send.query : "";
  assert.match(search, /__typename/);
  assert.match(search, /\.\.\. on Product \{[^}]*title/);
  assert.match(search, /\.\.\. on Order \{[^}]*status/);
  const node = plans[1].send.kind === "graphql" ? plans[1].send.query : "";
  // The interface's own field once, each implementation's others in its fragment.
  assert.match(node, /node\(id: \$id\) \{ __typename id \.\.\. on Product \{ title/);
  // A field that needs an argument is left out; lists of lists are selected as leaves.
  const orders = plans[2].send.kind === "graphql" ? plans[2].send.query : "";
  assert.doesNotMatch(orders, /customer/);
  assert.match(orders, /grid/);
  assert.equal(plans[0].readOnly, true);
  assert.equal(plans[3].readOnly, false, "a mutation has side effects");
});

Deno.test("graphqlPlans() types variables strictly: required args, enums, input objects, lists of lists, custom scalars", () => {
  const [search, , orders, place] = graphqlPlans(parseGraphqlSchema(SDL), {
    source: "shop",
    expose: EXPOSE,
  });
  assert.equal(search.input.safeParse({}).success, false, "text is required");
  assert.equal(search.input.safeParse({ text: "mug" }).success, true, "first has a default");
  assert.equal(orders.input.safeParse({ status: "PAID", matrix: [[1, 2], [3]] }).success, true);
  assert.equal(orders.input.safeParse({ status: "LOST" }).success, false, "unknown enum value");
  assert.equal(orders.input.safeParse({ matrix: [1, 2] }).success, false, "a list of lists");
  assert.equal(
    place.input.safeParse({
      order: { lines: [{ productId: "p1", quantity: 2 }], placedAt: "2026-01-01T00:00:00Z" },
    }).success,
    true,
  );
  const unknown = place.input.safeParse({ order: { lines: [], surprise: 1 } });
  assert.equal(unknown.success, false, "input objects are strict");
  assert.deepEqual(unknown.error?.issues[0].path.slice(0, 1), ["order"]);
  assert.equal(place.input.safeParse({ order: { lines: [{ productId: "p1" }] } }).success, false);
});

Deno.test("graphqlPlans() makes the same tools from an introspection result as from the SDL", () => {
  const introspection = graphqlSync({ schema: buildSchema(SDL), source: getIntrospectionQuery() });
  const fromJson = graphqlPlans(parseGraphqlSchema(JSON.stringify(introspection)), {
    source: "shop",
    expose: EXPOSE,
  });
  const fromSdl = graphqlPlans(parseGraphqlSchema(SDL), { source: "shop", expose: EXPOSE });
  assert.deepEqual(fromJson.map((plan) => plan.send), fromSdl.map((plan) => plan.send));
});

Deno.test("graphqlInputSchema() writes each field's input as zod's route did, over the test schemas and GitHub's, and its checks decide as zod's", () => {
  const schemas: [string, string][] = [
    ["test", SDL],
    ["shop", SHOP_SDL],
    ["GitHub", JSON.stringify(githubGraphql.json)],
  ];
  let compared = 0;
  let quick = 0;
  for (const [label, text] of schemas) {
    const schema = parseGraphqlSchema(text);
    const fields = [
      ...Object.values(schema.getQueryType()?.getFields() ?? {}),
      ...Object.values(schema.getMutationType()?.getFields() ?? {}),
    ];
    // GitHub's 290-odd fields: every fourth, to keep the suite quick (every second compared equal
    // when this was written).
    for (const [index, field] of fields.entries()) {
      if (label === "GitHub" && index % 4) continue;
      const direct = graphqlInputSchema(field);
      assert.deepEqual(direct, zodRouteGraphqlInputSchema(field), `${label}: ${field.name}`);
      // Its checks, built from it as a call builds them, take and refuse what zod's route did.
      const built = lazyInput(direct, field.name, { eager: true });
      const old = zodRouteGraphqlInput(field);
      const example = exampleFromSchema(direct, direct) as Record<string, unknown>;
      for (const value of [example, {}, { ...example, surprise: 1 }]) {
        assert.equal(
          built.safeParse(value).success,
          old.safeParse(value).success,
          `${label}: ${field.name} ${JSON.stringify(value)}`,
        );
      }
      // Where registration's quick check of an example answers (type lists with null, unions of
      // bare types: GraphQL's nullable arguments and IDs), it answers as the built check does.
      const properties = (direct.properties ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(properties)) {
        for (const sample of samplesFor(example[key])) {
          const plain = plainHolds(properties[key], sample);
          if (plain === undefined) continue;
          quick++;
          assert.equal(
            plain,
            built.shape[key].safeParse(sample).success,
            `${label}: ${field.name}.${key} ${JSON.stringify(properties[key])} ${
              JSON.stringify(sample)
            }`,
          );
        }
      }
      compared++;
    }
  }
  assert.ok(compared > 70, `${compared} fields compared`);
  assert.ok(quick > 300, `${quick} quick verdicts compared`);
});

/** Values of every kind, and an example's own value with its parts broken. */
function samplesFor(value: unknown): unknown[] {
  const kinds = [null, "x", "", 7, -1.5, true, [], [null], ["x"], {}, { surprise: 1 }];
  if (value === undefined) return kinds;
  if (!value || typeof value !== "object" || Array.isArray(value)) return [value, ...kinds];
  const record = value as Record<string, unknown>;
  const [first] = Object.keys(record);
  const { [first]: _dropped, ...rest } = record;
  return [value, rest, { ...record, surprise: 1 }, { ...record, [first]: [] }, ...kinds];
}

Deno.test("graphqlPlans() makes the same plans from an introspected schema as from the SDL it is stored as (registration maps the former, other instances once mapped the latter)", () => {
  for (
    const [sdl, expose] of [[SDL, EXPOSE], [SHOP_SDL, [
      "query.search",
      "mutation.placeOrder",
    ]]] as const
  ) {
    const answer = graphqlSync({ schema: buildSchema(sdl), source: getIntrospectionQuery() });
    const introspected = parseGraphqlSchema(JSON.stringify(answer));
    const reread = parseGraphqlSchema(schemaText(introspected));
    const shape = (schema: typeof introspected) =>
      graphqlPlans(schema, { source: "gh", expose }).map((plan) => ({
        ...plan,
        input: zodToJsonSchema(plan.input, { io: "input" }),
        output: undefined,
      }));
    assert.deepEqual(shape(introspected), shape(reread));
  }
});
