import assert from "node:assert/strict";
import { zodToJsonSchema } from "@shared/export/json_schema.ts";
import { lazyOutput, lenientOutputSchema } from "./output_schema.ts";

const DOC = {
  components: {
    schemas: {
      Pet: {
        type: "object",
        required: ["id", "name"],
        properties: {
          id: { type: "integer", format: "int64" },
          name: { type: "string", minLength: 1, pattern: "^[A-Z]" },
          born: { type: "string", format: "date", nullable: true },
          secret: { type: "string", writeOnly: true },
          owner: { $ref: "#/components/schemas/Person" },
          tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        },
      },
      Person: {
        type: "object",
        properties: {
          name: { type: "string", description: "The owner's name" },
          pets: { type: "array", items: { $ref: "#/components/schemas/Pet" } },
        },
      },
      Named: {
        allOf: [{ $ref: "#/components/schemas/Person" }, {
          type: "object",
          properties: { nick: { type: ["string", "null"] } },
        }],
      },
    },
  },
};

Deno.test("lenientOutputSchema() keeps types and structure, drops what an answer need not honour", () => {
  const json = lenientOutputSchema({ $ref: "#/components/schemas/Pet" }, "#", { root: DOC });
  assert.equal(json.type, "object");
  assert.equal(json.required, undefined, "nothing is required of an answer");
  assert.deepEqual(json.additionalProperties, {}, "unknown fields pass");
  const properties = json.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(properties.id, { type: "integer" });
  assert.deepEqual(properties.name, { type: "string", minLength: 1 }, "no pattern or format");
  assert.deepEqual(properties.born, { anyOf: [{ type: "string" }, { type: "null" }] });
  assert.equal(properties.secret, undefined, "write-only fields never come back");
  assert.deepEqual(properties.tags, { type: "array", items: { type: "string", enum: ["a", "b"] } });
  // Pet → owner (Person) → pets → Pet again: the cycle ends as an open value.
  const owner = properties.owner as { properties: Record<string, { items: unknown }> };
  assert.equal(
    (owner.properties.name as unknown as { description: string }).description,
    "The owner's name",
  );
  assert.deepEqual(owner.properties.pets.items, {});
});

Deno.test("lenientOutputSchema() merges allOf objects and cuts nesting past the depth", () => {
  const named = lenientOutputSchema({ $ref: "#/components/schemas/Named" }, "#", { root: DOC });
  assert.deepEqual(Object.keys(named.properties as object).sort(), ["name", "nick", "pets"]);
  const shallow = lenientOutputSchema({ $ref: "#/components/schemas/Person" }, "#", {
    root: DOC,
    maxDepth: 0,
  });
  assert.deepEqual((shallow.properties as Record<string, unknown>).pets, {});
  assert.throws(
    () => lenientOutputSchema({ $ref: "#/components/schemas/Nope" }, "#/x", { root: DOC }),
    /not in the document/,
  );
});

Deno.test("lazyOutput() checks an answer's types leniently and exports the JSON Schema it was given", () => {
  const json = lenientOutputSchema({ $ref: "#/components/schemas/Pet" }, "#", { root: DOC });
  const output = lazyOutput(json, "pets_get_pet");
  assert.equal(zodToJsonSchema(output, { io: "output" }), json, "exported as given, not rebuilt");
  assert.equal(output.safeParse({ id: 1, extra: true }).success, true, "missing and extra fields");
  assert.equal(output.safeParse({ id: 1, name: "lowercase", born: "not a date" }).success, true);
  assert.equal(output.safeParse({ id: "one" }).success, false, "a wrong type is refused");
  assert.equal(output.safeParse({ tags: ["c"] }).success, false);
  assert.equal(lazyOutput({}, "x").safeParse("anything").success, true);
});

Deno.test("lenientOutputSchema() reuses a reference's expansion only where the references around it would not have cut it otherwise", () => {
  // A and B refer to each other: A under B is cut at B, A alone expands B once.
  const root = {
    components: {
      schemas: {
        A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" } } },
        B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } } },
      },
    },
  };
  const holdsA = { type: "object", properties: { p: { $ref: "#/components/schemas/A" } } };
  const answers = [holdsA, { $ref: "#/components/schemas/B" }, holdsA];
  for (const schema of answers) {
    assert.deepEqual(
      lenientOutputSchema(schema, "#", { root }),
      lenientOutputSchema(schema, "#", { root, reuse: false }),
    );
  }
  const [a, b] = answers.map((schema) => lenientOutputSchema(schema, "#", { root }));
  const open = (properties: unknown) => ({ type: "object", properties, additionalProperties: {} });
  assert.deepEqual(a, open({ p: open({ b: open({ a: {} }) }) }));
  assert.deepEqual(b, open({ a: open({ b: {} }) }));
});
