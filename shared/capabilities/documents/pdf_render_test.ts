import assert from "node:assert/strict";
import fc from "fast-check";
import { renderPdf } from "./pdf_render.ts";
import type { DocumentContent } from "./template.ts";

const OPTIONS = { id: "0123456789abcdef0123456789abcdef", language: "en" as const };
const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";

Deno.test("renderPdf lays out Arabic script (fontkit's shapers keep their static methods)", async () => {
  const content: DocumentContent = {
    title: "Reçu — إيصال",
    sections: [{ fields: [{ label: "Client", value: "مرحبا ڵ Uwase" }] }],
    date: new Date("2026-11-23T08:00:00Z"),
  };
  assert.ok(isPdf(await renderPdf(content, OPTIONS)));
});

Deno.test("renderPdf ends for any column width and any unbroken word", async () => {
  const content: DocumentContent = {
    title: "x".repeat(2000),
    sections: [{ fields: [{ label: "Plate", value: "RAD123A".repeat(280) }] }],
    table: {
      columns: [{ header: "a", width: 0.001 }, { header: "b", width: 1000 }, {
        header: "c",
        width: 1,
      }],
      rows: [["abcdefghij".repeat(20), "w".repeat(300), "z z 😀😀"]],
    },
    date: new Date("2026-11-23T08:00:00Z"),
  };
  assert.ok(isPdf(await renderPdf(content, OPTIONS)));
});

Deno.test("loading fontkit leaves Deno's __proto__ guard in place", () => {
  const child = function () {} as unknown as Record<string, unknown>;
  const parent = Object.assign(function () {}, { inherited: true });
  child["__proto__"] = parent;
  assert.equal(child.inherited, undefined);
});

Deno.test("renderPdf lays out any text a customer or staff may type", async () => {
  const text = fc.string({ unit: "binary", maxLength: 120 });
  await fc.assert(
    fc.asyncProperty(
      text,
      fc.array(fc.record({ label: text, value: text }), { maxLength: 4 }),
      fc.array(text, { maxLength: 2 }),
      fc.tuple(
        fc.double({ min: 0.001, max: 1000, noNaN: true }),
        fc.double({ min: 0.001, max: 1000, noNaN: true }),
      ),
      async (title, fields, notes, [first, second]) => {
        const content: DocumentContent = {
          title: title || "-",
          subtitle: notes[0],
          sections: [{ heading: notes[1], fields }],
          table: {
            columns: [{ header: title, width: first }, {
              header: "RWF",
              numeric: true,
              width: second,
            }],
            rows: fields.map((field) => [field.label, field.value]),
          },
          notes,
          date: new Date("2026-11-23T08:00:00Z"),
        };
        assert.ok(isPdf(await renderPdf(content, OPTIONS)));
      },
    ),
    { numRuns: 40 },
  );
});

Deno.test("renderPdf lays out scripts fontkit's universal shaper handles (Tifinagh, Balinese)", async () => {
  for (const text of ["ⴰ", "ⴰⵣⵓⵍ ⴰⴷⵔⴰⵔ", "ᬅᬓ᭄ᬱᬭ"]) {
    const content: DocumentContent = {
      title: text,
      sections: [{ fields: [{ label: text, value: `${text} Uwase` }] }],
      date: new Date("2026-11-23T08:00:00Z"),
    };
    assert.ok(isPdf(await renderPdf(content, OPTIONS)), text);
  }
});
