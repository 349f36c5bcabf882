import assert from "node:assert/strict";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { cleanDescription, documentHash, sha256Hex } from "./operation.ts";

Deno.test("documentHash() is the SHA-256 of the text's UTF-8 bytes, as stored rows were hashed with WebCrypto", async () => {
  // The hex WebCrypto gives for TextEncoder's bytes: what every stored document_hash was made with.
  const webCrypto = async (text: string) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
      .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  assert.equal(
    await documentHash("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  const texts = [
    "",
    '{"openapi":"3.1.0"}',
    "créerPaiement — Muraho, ndashaka moto 💥",
    "lone \ud800 high and \udc00 low surrogates",
    "\u0000 NUL and \r\n line ends",
    `{"x":"${"é🙂a".repeat(300_000)}"}`,
  ];
  for (const text of texts) {
    assert.equal(
      await documentHash(text),
      await webCrypto(text),
      JSON.stringify(text.slice(0, 40)),
    );
  }
});

Deno.test("sha256Hex() in slices is the digest of the whole text, wherever the slices cut surrogates", () => {
  const whole = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
  const units = fc.constantFrom("a", "é", "\ud83d", "\ude00", "\ud83d\ude00", "\u0000", "—", "{");
  fc.assert(
    fc.property(
      fc.array(units, { maxLength: 60 }),
      fc.integer({ min: 1, max: 9 }),
      (parts, size) => {
        const text = parts.join("");
        assert.equal(sha256Hex(text, size), whole(text));
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("cleanDescription() single-spaces and cuts long texts as it does short ones, wherever the whitespace falls", () => {
  // The whole text single-spaced, then cut: what the shortcut on long texts must equal.
  const whole = (text: string, max: number) => {
    const value = text.replace(/\s+/g, " ").trim();
    return !value ? "fallback" : value.length > max ? `${value.slice(0, max - 1)}…` : value;
  };
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pieces = ["word", " ", "\n\n", "\t", "   ", "é", "a", "    \n  "];
  for (let round = 0; round < 300; round++) {
    const max = [10, 80, 300, 600][round % 4];
    const length = Math.floor(random() * max * 5);
    let text = "";
    while (text.length < length) text += pieces[Math.floor(random() * pieces.length)];
    assert.equal(cleanDescription(text, "fallback", max), whole(text, max), JSON.stringify(text));
  }
  // Whitespace right where the first part ends, and a text that is mostly whitespace.
  assert.equal(
    cleanDescription(`${"a".repeat(20)}${" ".repeat(30)}b`, "f", 10),
    whole(`${"a".repeat(20)}${" ".repeat(30)}b`, 10),
  );
  assert.equal(cleanDescription(`${" ".repeat(5000)}x`, "f", 10), "x");
  assert.equal(cleanDescription(" \n ", "f", 10), "f");
  assert.equal(cleanDescription(42, "f"), "f");
});
