import assert from "node:assert/strict";
import { NAME_RULES, NameMap } from "./names.ts";

const OURS = [
  "markets.get_price",
  "orders.create",
  "a.b",
  "a_b",
  "system.ping",
  "x".repeat(64),
];

Deno.test("NameMap maps every name to a valid provider name and back", async (t) => {
  for (const rule of Object.values(NAME_RULES)) {
    await t.step(rule.provider, () => {
      const names = new NameMap(OURS, rule);
      assert.equal(names.size, OURS.length);
      const mapped = new Set<string>();
      for (const name of OURS) {
        const providerName = names.toProvider(name);
        assert.ok(providerName !== undefined);
        assert.match(providerName, rule.pattern);
        assert.equal(names.fromProvider(providerName), name);
        mapped.add(providerName);
      }
      assert.equal(mapped.size, OURS.length, "provider names are unique");
    });
  }
});

Deno.test("NameMap replaces dots for OpenAI and Anthropic and keeps them for Gemini and MCP", () => {
  for (const rule of [NAME_RULES.openai, NAME_RULES.anthropic]) {
    assert.equal(
      new NameMap(["markets.get_price"], rule).toProvider("markets.get_price"),
      "markets_get_price",
    );
  }
  for (const rule of [NAME_RULES.gemini, NAME_RULES.mcp]) {
    assert.equal(
      new NameMap(["markets.get_price"], rule).toProvider("markets.get_price"),
      "markets.get_price",
    );
  }
});

Deno.test("NameMap resolves a collision with a stable hash and lets the unchanged name keep its own", () => {
  const names = new NameMap(["a.b", "a_b"], NAME_RULES.openai);
  assert.equal(names.toProvider("a_b"), "a_b");
  assert.equal(names.toProvider("a.b"), "a_b_108bf5");
  assert.equal(names.fromProvider("a_b_108bf5"), "a.b");
  assert.equal(names.fromProvider("a_b"), "a_b");
});

Deno.test("NameMap hashes every claimant when none of them is unchanged", () => {
  const names = new NameMap(["a.b", "a-b", "x"], {
    ...NAME_RULES.openai,
    invalidChar: /[^A-Za-z0-9_]/g,
  });
  const first = names.toProvider("a.b")!;
  const second = names.toProvider("a-b")!;
  assert.match(first, /^a_b_[0-9a-f]{6}$/);
  assert.match(second, /^a_b_[0-9a-f]{6}$/);
  assert.notEqual(first, second);
  assert.equal(names.toProvider("x"), "x");
});

Deno.test("NameMap does not depend on the order names arrive in", () => {
  const forward = new NameMap(OURS, NAME_RULES.openai);
  const backward = new NameMap([...OURS].reverse(), NAME_RULES.openai);
  assert.deepEqual(forward.toJSON(), backward.toJSON());
  assert.deepEqual(forward.entries().map(([name]) => name), [...OURS].sort());
});

Deno.test("NameMap keeps a name alone in the batch unhashed", () => {
  assert.equal(new NameMap(["a.b"], NAME_RULES.openai).toProvider("a.b"), "a_b");
});

Deno.test("NameMap truncates a name that is too long and adds a hash", () => {
  const long = `ns.${"y".repeat(80)}`;
  const names = new NameMap([long], NAME_RULES.openai);
  const providerName = names.toProvider(long)!;
  assert.equal(providerName.length, 64);
  assert.match(providerName, /^ns_y+_[0-9a-f]{6}$/);
  assert.equal(names.fromProvider(providerName), long);
  // MCP allows 128 characters: no hash needed.
  assert.equal(new NameMap([long], NAME_RULES.mcp).toProvider(long), long);
});

Deno.test("NameMap keeps truncated names apart when they share a prefix", () => {
  const a = `${"p".repeat(70)}a`;
  const b = `${"p".repeat(70)}b`;
  const names = new NameMap([a, b], NAME_RULES.anthropic);
  assert.notEqual(names.toProvider(a), names.toProvider(b));
  assert.equal(names.fromProvider(names.toProvider(b)!), b);
});

Deno.test("NameMap prefixes `_` where Gemini needs a letter first", () => {
  const names = new NameMap(["9lives"], NAME_RULES.gemini);
  assert.equal(names.toProvider("9lives"), "_9lives");
  assert.equal(names.fromProvider("_9lives"), "9lives");
});

Deno.test("NameMap answers undefined for names it does not know", () => {
  const names = new NameMap(["a.b"], NAME_RULES.openai);
  assert.equal(names.fromProvider("nope"), undefined);
  assert.equal(names.fromProvider("a.b"), undefined);
  assert.equal(names.toProvider("nope"), undefined);
});

Deno.test("NameMap maps an empty or all-invalid name to a hashed valid name", () => {
  const names = new NameMap(["", "é"], NAME_RULES.openai);
  for (const name of ["", "é"]) {
    const providerName = names.toProvider(name)!;
    assert.match(providerName, NAME_RULES.openai.pattern);
    assert.equal(names.fromProvider(providerName), name);
  }
});

Deno.test("NameMap serialises as ourName → providerName", () => {
  const names = new NameMap(["b.c", "a.b"], NAME_RULES.openai);
  assert.equal(JSON.stringify(names), '{"a.b":"a_b","b.c":"b_c"}');
});
