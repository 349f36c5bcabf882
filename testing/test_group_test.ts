import assert from "node:assert/strict";
import { importTestFile, renamedDefinition } from "./test_group.ts";

const fn = () => {};
function named() {}

Deno.test("test_group: every form of Deno.test's arguments becomes one definition named after the file", () => {
  const prefix = "a/x_test.ts > ";
  assert.deepEqual(renamedDefinition(prefix, ["plain", fn]), { name: `${prefix}plain`, fn });
  assert.deepEqual(renamedDefinition(prefix, ["opts", { ignore: true }, fn]), {
    name: `${prefix}opts`,
    ignore: true,
    fn,
  });
  assert.deepEqual(renamedDefinition(prefix, [{ name: "object", fn, sanitizeOps: false }]), {
    name: `${prefix}object`,
    fn,
    sanitizeOps: false,
  });
  assert.deepEqual(renamedDefinition(prefix, [named]), { name: `${prefix}named`, fn: named });
  assert.deepEqual(renamedDefinition(prefix, [{ permissions: "none" }, named]), {
    name: `${prefix}named`,
    permissions: "none",
    fn: named,
  });
  assert.throws(() => renamedDefinition(prefix, [[() => {}][0]]), TypeError);
});

Deno.test("test_group: Deno.test is put back after an import, and after one that fails", async () => {
  const original = Deno.test;
  let during: unknown;
  await importTestFile("a/x_test.ts", () => {
    during = Deno.test;
    return Promise.resolve();
  });
  assert.notEqual(during, original);
  assert.equal(Deno.test, original);
  await assert.rejects(
    importTestFile("a/y_test.ts", () => Promise.reject(new Error("no such module"))),
    /no such module/,
  );
  assert.equal(Deno.test, original);
});
