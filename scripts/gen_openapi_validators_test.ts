import assert from "node:assert/strict";
import { validate as scalarValidate } from "@scalar/openapi-parser";
import { petstoreDocument } from "@testing/tenant_api_server.ts";
import { parseOpenapi } from "@shared/generated_tools/openapi_validate.ts";
import { GenerationError } from "@shared/generated_tools/operation.ts";
import { validatorFile, validatorSource } from "./gen_openapi_validators.ts";

Deno.test("the committed OpenAPI meta-schema validators are what the installed packages generate (run `deno task gen:openapi-validators`)", async () => {
  for (const version of ["2.0", "3.0", "3.1"] as const) {
    assert.equal(
      await Deno.readTextFile(validatorFile(version)),
      await validatorSource(version),
      `openapi_meta/v${version} is stale`,
    );
  }
});

// The precompiled validators must judge as @scalar/openapi-parser's validate() does.
const pet = petstoreDocument("https://pets.example.com");
const CASES: [string, unknown][] = [
  ["3.1 petstore", pet],
  ["3.0 petstore", { ...pet, openapi: "3.0.3" }],
  ["3.1 operationId not a string", {
    ...pet,
    paths: { "/a": { get: { operationId: 5, responses: {} } } },
  }],
  ["3.0 unknown top-level field", { ...pet, openapi: "3.0.3", surprise: true }],
  ["3.1 path parameter missing", {
    ...pet,
    paths: { "/a/{id}": { get: { operationId: "a", responses: { 200: { description: "ok" } } } } },
  }],
  ["3.1 dangling $ref", {
    ...pet,
    paths: {
      "/a": {
        get: {
          operationId: "a",
          responses: { 200: { $ref: "#/components/responses/Missing" } },
        },
      },
    },
  }],
  ["3.1 $ref'd path parameter", {
    ...pet,
    components: {
      ...(pet.components as object),
      parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "string" } } },
    },
    paths: {
      "/a/{id}": {
        get: {
          operationId: "a",
          parameters: [{ $ref: "#/components/parameters/Id" }],
          responses: { 200: { description: "ok" } },
        },
      },
    },
  }],
  ["2.0 minimal", {
    swagger: "2.0",
    info: { title: "x", version: "1" },
    paths: { "/a": { get: { operationId: "a", responses: { 200: { description: "ok" } } } } },
  }],
  ["2.0 bad field", { swagger: "2.0", info: { title: "x", version: "1" }, paths: {}, host: 5 }],
];

for (const [name, document] of CASES) {
  Deno.test(`parseOpenapi() accepts and refuses as @scalar/openapi-parser: ${name}`, async () => {
    const text = JSON.stringify(document);
    const expected = (await scalarValidate(text)).valid;
    let ours = true;
    try {
      await parseOpenapi(text);
    } catch (error) {
      assert.ok(error instanceof GenerationError, String(error));
      assert.ok(error.issues.every((issue) => issue.path.startsWith("#")), error.message);
      ours = false;
    }
    assert.equal(ours, expected);
  });
}
