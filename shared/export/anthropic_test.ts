import assert from "node:assert/strict";
import { toAnthropicTools } from "./anthropic.ts";
import { ToolExportError } from "./batch.ts";
import {
  ALL_TOOLS,
  allKeys,
  docsTree,
  newAjv,
  ping,
  REPRESENTABLE,
} from "@testing/export_fixtures.ts";

const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

Deno.test("toAnthropicTools() exports object-root schemas under valid names", () => {
  const result = toAnthropicTools(REPRESENTABLE);
  assert.equal(result.tools.length, REPRESENTABLE.length);
  for (const tool of result.tools) {
    assert.match(tool.name, ANTHROPIC_NAME);
    assert.equal(tool.input_schema.type, "object");
    assert.equal(typeof tool.description, "string");
    assert.equal(allKeys(tool.input_schema).some(({ key }) => key === "$schema"), false);
    const ajv = newAjv();
    assert.equal(ajv.validateSchema(tool.input_schema), true, ajv.errorsText(ajv.errors));
    const validate = ajv.compile(tool.input_schema);
    const ours = REPRESENTABLE.find((candidate) =>
      candidate.name === result.names.fromProvider(tool.name)
    );
    assert.ok(ours);
    for (const example of ours.examples) assert.equal(validate(example.input), true);
  }
});

Deno.test("toAnthropicTools() fails, naming the tool, when one cannot be represented", () => {
  assert.throws(
    () => toAnthropicTools(ALL_TOOLS),
    new ToolExportError("anthropic", [
      { tool: "calendar.add_event", reason: "Date cannot be represented in JSON Schema" },
    ]),
  );
  const result = toAnthropicTools(REPRESENTABLE);
  assert.equal(result.names.toProvider("markets.get_price"), "markets_get_price");
  assert.notEqual(result.names.toProvider("a.b"), result.names.toProvider("a_b"));
});

Deno.test("toAnthropicTools() keeps recursion and drops the root title and description", () => {
  const [tree] = toAnthropicTools([docsTree]).tools;
  assert.ok(tree.input_schema.$defs);
  assert.equal("title" in tree.input_schema, false);
  assert.equal("description" in tree.input_schema, false);
  assert.deepEqual(tree.input_schema.examples, [docsTree.examples[0].input]);
});

Deno.test("toAnthropicTools() closes the schema of a tool without arguments", () => {
  const [tool] = toAnthropicTools([ping]).tools;
  assert.deepEqual(tool.input_schema, {
    type: "object",
    properties: {},
    examples: [{}],
    additionalProperties: false,
  });
});
