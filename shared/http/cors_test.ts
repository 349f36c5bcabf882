import assert from "node:assert/strict";
import { originAllowed, parseCorsOrigins } from "./cors.ts";

Deno.test("parseCorsOrigins() reads exact origins, or * alone, and names what is not an origin", () => {
  assert.deepEqual(parseCorsOrigins("https://App.example.com, http://localhost:6274/"), [
    "https://app.example.com",
    "http://localhost:6274",
  ]);
  assert.deepEqual(parseCorsOrigins(""), []);
  assert.deepEqual(parseCorsOrigins(undefined), []);
  assert.equal(parseCorsOrigins(" * "), "*");
  for (
    const bad of ["https://a.example/app", "a.example", "ftp://a.example", "https://u@a.example"]
  ) {
    assert.throws(
      () => parseCorsOrigins(bad),
      new RegExp(JSON.stringify(bad).replace(/[/.]/g, "\\$&")),
    );
  }
  assert.throws(() => parseCorsOrigins("*, https://a.example"), /alone/);
});

Deno.test("originAllowed() matches exact origins only", () => {
  const origins = parseCorsOrigins("https://a.example");
  assert.equal(originAllowed(origins, "https://a.example"), true);
  assert.equal(originAllowed(origins, "https://a.example.evil.com"), false);
  assert.equal(originAllowed(origins, "http://a.example"), false);
  assert.equal(originAllowed("*", "https://b.example"), true);
});
