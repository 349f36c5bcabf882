import assert from "node:assert/strict";
import { allSetHashes, hashDifferences, recordedHashes, type SetHashes } from "./fixture_hashes.ts";

Deno.test("every fixture set's pages are as recorded in fixture_hashes.json", async () => {
  const differences = hashDifferences(await recordedHashes(), await allSetHashes());
  const unrecorded = differences.filter((line) => line.endsWith(": not recorded"));
  assert.deepEqual(
    differences.filter((line) => !unrecorded.includes(line)),
    [],
    "a generator change altered these sets' pages (their published figures were measured on the " +
      "old ones): undo it, or regenerate and re-measure them and run `deno task fixtures:hash --write`",
  );
  assert.deepEqual(
    unrecorded,
    [],
    "new sets: record their pages with `deno task fixtures:hash --write` (with their fixtures " +
      "generated), so a later generator change cannot alter them unseen",
  );
});

Deno.test("a changed page is named by its set and family", () => {
  const page = (families: Record<string, string>): SetHashes => ({
    pages: 2,
    sha256: JSON.stringify(families),
    families,
  });
  const recorded = {
    sixth_dev: page({ value_above: "a", comb_boxes: "b" }),
    dev: page({ x: "c" }),
  };
  const current = { sixth_dev: page({ value_above: "a", comb_boxes: "B" }), dev: page({ x: "c" }) };
  assert.deepEqual(hashDifferences(recorded, current), [
    "sixth_dev: 2 → 2 pages; changed: comb_boxes",
  ]);
  assert.deepEqual(hashDifferences(recorded, { dev: page({ x: "c" }) }), [
    "sixth_dev: no longer generated",
  ]);
  assert.deepEqual(hashDifferences({ dev: page({ x: "c" }) }, recorded), [
    "sixth_dev: not recorded",
  ]);
});
