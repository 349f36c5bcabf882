import assert from "node:assert/strict";
import {
  buildSchema,
  getIntrospectionQuery,
  graphql,
  GraphQLScalarType,
  graphqlSync,
} from "graphql";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { allowTenantApiOnLoopback } from "@testing/tenant_api_server.ts";

/**
 * A marketplace schema in styles the corpus lacks: a `@oneOf` input (exactly one way to name a
 * product), custom scalars in and out (`JSON` objects, `Money` numbers, `Date` text), a non-null
 * argument with a default, an interface implementing an interface, a union and an interface in
 * results, nesting deeper than the selection goes, enums, lists of lists in and out.
 */
const MARKET_SDL = `
scalar JSON
scalar Money
scalar Date
enum Sort { NEWEST PRICE_ASC }
enum Unit { PIECE KG }
interface Node { id: ID! }
interface Priced implements Node { id: ID! price: Money! }
type Address { city: String! country: Country! }
type Country { code: String! region: Region! }
type Region { name: String! planet: Planet! }
type Planet { name: String! }
type Vendor implements Node { id: ID! name: String! address: Address! }
type Product implements Node & Priced { id: ID! price: Money! title: String! unit: Unit! vendor: Vendor! attributes: JSON sizes: [[Int!]!]! }
type Bundle implements Node & Priced { id: ID! price: Money! items: [Product!]! }
union Listing = Product | Bundle
input ProductRef @oneOf { id: ID sku: String barcode: String }
input OrderLine { product: ProductRef! quantity: Int! = 1 unit: Unit = PIECE }
type Query {
  product(ref: ProductRef!): Product
  listings(sort: Sort! = NEWEST, first: Int = 10): [Listing!]!
  priced(ids: [ID!]!): [Priced!]!
  deliverySlots(from: Date!): [[String!]!]!
}
type Mutation {
  order(lines: [OrderLine!]!, meta: JSON, grid: [[Int!]!]): OrderResult!
}
type OrderResult { total: Money! lines: Int! meta: JSON grid: [[Int!]!] }
`;

const PRODUCT = {
  __typename: "Product",
  id: "p1",
  price: 1500,
  title: "Beans",
  unit: "KG",
  vendor: {
    id: "v1",
    name: "Kimironko stall 4",
    address: {
      city: "Kigali",
      country: { code: "RW", region: { name: "East Africa", planet: { name: "Earth" } } },
    },
  },
  attributes: { organic: true, origin: ["Musanze"] },
  sizes: [[1, 2], [5]],
};
const BUNDLE = { __typename: "Bundle", id: "b1", price: 4000, items: [PRODUCT] };

function startMarketApi() {
  const schema = buildSchema(MARKET_SDL);
  // Custom scalars as such servers define them: JSON any value, Money a number, Date text.
  const json = schema.getType("JSON") as GraphQLScalarType;
  json.parseValue = (value) => value;
  json.serialize = (value) => value;
  const money = schema.getType("Money") as GraphQLScalarType;
  money.parseValue = (value) => {
    if (typeof value !== "number") throw new TypeError("Money is a number");
    return value;
  };
  money.serialize = (value) => value;
  const seen: { query: string; variables: Record<string, unknown> }[] = [];
  const root = {
    product: ({ ref }: { ref: Record<string, string> }) =>
      ref.id === "p1" || ref.sku === "BEANS-1" ? PRODUCT : null,
    listings: ({ sort }: { sort: string }) =>
      sort === "PRICE_ASC" ? [PRODUCT, BUNDLE] : [BUNDLE, PRODUCT],
    priced: ({ ids }: { ids: string[] }) => ids.map((id) => id === "b1" ? BUNDLE : PRODUCT),
    deliverySlots: ({ from }: { from: string }) => [[`${from}T08:00`, `${from}T10:00`], []],
    order: (
      { lines, meta, grid }: {
        lines: { quantity: number }[];
        meta?: unknown;
        grid?: number[][];
      },
    ) => ({
      total: lines.reduce((sum, line) => sum + line.quantity * 1500, 0),
      lines: lines.length,
      meta: meta ?? null,
      grid: grid ?? null,
    }),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const { query, variables } = await request.json();
    seen.push({ query, variables: variables ?? {} });
    return Response.json(
      await graphql({ schema, source: query, rootValue: root, variableValues: variables }),
    );
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    seen,
    introspection: graphqlSync({ schema, source: getIntrospectionQuery({ oneOf: true }) }),
    close: () => server.shutdown(),
  };
}

const EXPOSE = [
  "query.product",
  "query.listings",
  "query.priced",
  "query.deliverySlots",
  "mutation.order",
];

for (const form of ["sdl", "introspection"] as const) {
  dbTest(
    `generated tools: a GraphQL schema (${form}) with @oneOf inputs, custom scalars, interfaces of interfaces, unions, deep nesting and lists of lists registers and calls`,
    async (db) => {
      const api = startMarketApi();
      const rt = await createTestRuntime(db);
      try {
        await allowTenantApiOnLoopback(db, ORG.easymo);
        const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
          name: "market",
          kind: "graphql",
          document: form === "sdl" ? MARKET_SDL : JSON.stringify(api.introspection),
          base_url: api.url,
          expose: EXPOSE,
        });
        assert.equal(registered.ok, true, JSON.stringify(registered));
        assert.deepEqual(registered.data.not_offered, []);
        const call = (tool: string, args: Record<string, unknown>) =>
          tool === "market_order"
            ? callConfirmed(rt, USER.jean, tool, args) as Promise<TestData>
            : rt.callAs(USER.jean, tool, args) as Promise<TestData>;

        // @oneOf: exactly one way of naming the product.
        const bySku = await call("market_get_product", { ref: { sku: "BEANS-1" } });
        assert.equal(bySku.ok, true, JSON.stringify(bySku));
        assert.equal(bySku.data.title, "Beans");
        assert.deepEqual(bySku.data.attributes, { organic: true, origin: ["Musanze"] });
        assert.deepEqual(bySku.data.sizes, [[1, 2], [5]]);
        assert.equal(bySku.data.vendor.address.city, "Kigali");
        const sent = api.seen.length;
        for (const ref of [{ id: "p1", sku: "BEANS-1" }, {}, { id: null }]) {
          const refused = await call("market_get_product", { ref });
          assert.equal(refused.error?.code, "VALIDATION_ERROR", JSON.stringify([ref, refused]));
          assert.ok(refused.error.fields[0].path.startsWith("ref"), JSON.stringify(refused));
        }
        assert.equal(api.seen.length, sent, "refused before anything is sent");

        // A non-null argument with a default may be left out, but is never null.
        const listed = await call("market_get_listings", {});
        assert.equal(listed.ok, true, JSON.stringify(listed));
        assert.deepEqual(listed.data.map((item: TestData) => item.__typename), [
          "Bundle",
          "Product",
        ]);
        assert.equal(listed.data[0].price, 4000);
        const nullSort = await call("market_get_listings", { sort: null });
        assert.equal(nullSort.error?.code, "VALIDATION_ERROR", JSON.stringify(nullSort));
        const sorted = await call("market_get_listings", { sort: "PRICE_ASC", first: null });
        assert.equal(sorted.ok, true, JSON.stringify(sorted));
        assert.equal(sorted.data[0].__typename, "Product");

        // An interface whose implementations implement another interface.
        const priced = await call("market_get_priced", { ids: ["b1", 7] });
        assert.equal(priced.ok, true, JSON.stringify(priced));
        assert.deepEqual(priced.data.map((item: TestData) => [item.__typename, item.price]), [
          ["Bundle", 4000],
          ["Product", 1500],
        ]);

        const slots = await call("market_get_delivery_slots", { from: "2026-12-01" });
        assert.equal(slots.ok, true, JSON.stringify(slots));
        assert.deepEqual(slots.data, [["2026-12-01T08:00", "2026-12-01T10:00"], []]);

        // A JSON scalar takes an object; lists of lists go as they are; defaults fill the rest.
        const ordered = await call("market_order", {
          lines: [{ product: { id: "p1" }, quantity: 2 }, { product: { barcode: "600" } }],
          meta: { channel: "whatsapp", tags: ["gift"] },
          grid: [[1], [2, 3]],
        });
        assert.equal(ordered.ok, true, JSON.stringify(ordered));
        assert.deepEqual(ordered.data, {
          total: 4500,
          lines: 2,
          meta: { channel: "whatsapp", tags: ["gift"] },
          grid: [[1], [2, 3]],
        });
        const twoRefs = await call("market_order", {
          lines: [{ product: { id: "p1", sku: "x" } }],
        });
        assert.equal(twoRefs.error?.code, "VALIDATION_ERROR", JSON.stringify(twoRefs));
      } finally {
        await api.close();
        await rt.platform.traces.flush();
      }
    },
  );
}
