import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from "./base64.ts";

Deno.test("any bytes survive base64 and base64url, as Node's Buffer writes them", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const standard = encodeBase64(bytes);
      const url = encodeBase64Url(bytes);
      assert.equal(standard, Buffer.from(bytes).toString("base64"));
      assert.equal(url, Buffer.from(bytes).toString("base64url"));
      assert.deepEqual(decodeBase64(standard), bytes);
      assert.deepEqual(decodeBase64Url(url), bytes);
    }),
  );
});

Deno.test("a megabyte is encoded without overflowing the stack", () => {
  const bytes = new Uint8Array(1 << 20).map((_, index) => index * 7);
  assert.deepEqual(decodeBase64(encodeBase64(bytes)), bytes);
});

Deno.test("text that is not base64 is refused, not read as something else", () => {
  for (const text of ["ab$c", "a", "abcde", "ab=c", "YQ===", " YWJj", "YW\nJj"]) {
    assert.throws(() => decodeBase64(text), SyntaxError, text);
  }
  assert.throws(() => decodeBase64Url("+/8"), SyntaxError);
  assert.throws(() => decodeBase64Url("ab*"), SyntaxError);
  assert.deepEqual(decodeBase64("YWI"), new TextEncoder().encode("ab"));
  assert.deepEqual(decodeBase64Url("-_8"), new Uint8Array([251, 255]));
});
