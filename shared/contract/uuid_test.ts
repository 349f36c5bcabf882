import assert from "node:assert/strict";
import { isUuid } from "./uuid.ts";

Deno.test("isUuid takes canonical uuids in either case and nothing else", () => {
  assert.equal(isUuid("a0000000-0000-4000-8000-000000000001"), true);
  assert.equal(isUuid("A0000000-0000-4000-8000-00000000000F"), true);
  for (
    const value of [
      "",
      "a0000000000040008000000000000001",
      "{a0000000-0000-4000-8000-000000000001}",
      "a0000000-0000-4000-8000-000000000001\n",
      "a0000000-0000-4000-8000-00000000000g",
      1,
      null,
    ]
  ) {
    assert.equal(isUuid(value), false, JSON.stringify(value));
  }
});
