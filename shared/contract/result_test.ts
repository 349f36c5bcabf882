import assert from "node:assert/strict";
import { z } from "zod";
import { validationFailure } from "./result.ts";

Deno.test("validationFailure() names each unknown key where it is, top level and nested", () => {
  const input = z.strictObject({ limit: z.number(), body: z.strictObject({ name: z.string() }) });
  const parsed = input.safeParse({ limit: 1, limitt: 2, body: { name: "Kit", colour: "red" } });
  assert.equal(parsed.success, false);
  const failure = validationFailure(parsed.error!);
  assert.equal(failure.error.code, "VALIDATION_ERROR");
  // The field's path stays its object's, as zod reports it; its message names the key.
  assert.deepEqual(
    failure.error.fields?.map((field) => [field.path, field.message]).sort(),
    [
      ["", "Unknown field limitt: not in this input's schema"],
      ["body", "Unknown field body.colour: not in this input's schema"],
    ],
  );
  // The summary names the keys, not "check input".
  assert.match(
    failure.error.msg,
    /^Invalid request: check (limitt, body\.colour|body\.colour, limitt)$/,
  );
});

Deno.test("validationFailure() keeps other issues as zod reports them", () => {
  const parsed = z.object({ limit: z.number() }).safeParse({ limit: "x" });
  const failure = validationFailure(parsed.error!);
  assert.deepEqual(failure.error.fields?.map((field) => field.path), ["limit"]);
});
