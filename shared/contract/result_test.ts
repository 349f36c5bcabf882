import assert from "node:assert/strict";
import { z } from "zod";
import { validationFailure } from "./result.ts";

Deno.test("validationFailure() names each unknown key at its own path, top level and nested", () => {
  const input = z.strictObject({ limit: z.number(), body: z.strictObject({ name: z.string() }) });
  const parsed = input.safeParse({ limit: 1, limitt: 2, body: { name: "Kit", colour: "red" } });
  assert.equal(parsed.success, false);
  const failure = validationFailure(parsed.error!);
  assert.equal(failure.error.code, "VALIDATION_ERROR");
  assert.deepEqual(failure.error.fields?.map((field) => field.path).sort(), [
    "body.colour",
    "limitt",
  ]);
  assert.match(failure.error.msg, /limitt/);
  assert.match(failure.error.msg, /body\.colour/);
});

Deno.test("validationFailure() keeps other issues as zod reports them", () => {
  const parsed = z.object({ limit: z.number() }).safeParse({ limit: "x" });
  const failure = validationFailure(parsed.error!);
  assert.deepEqual(failure.error.fields?.map((field) => field.path), ["limit"]);
});
