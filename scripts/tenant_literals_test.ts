/**
 * Tenants are data: the kernel, the agent and the channels name no tenant,
 * country or currency. A brand, a country or a currency in their code
 * (comments and tests aside) would speak for every tenant as one of them.
 * Such words come from the tenant's row (`orgs.brand_name`, `country`,
 * `currency`) or from a pack.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ROOT, sourceFiles, withoutComments } from "./source_scan.ts";

/** The folders that must name no tenant, country or currency. */
export const NEUTRAL_FOLDERS = [
  "shared/agent",
  "shared/channels",
  "shared/registry",
  "shared/pipeline",
  "shared/contract",
];

/** The words: the first tenant's brand, its country, its currency. */
const LITERALS = /EasyMO|Rwanda|RWF/g;

/**
 * Code still naming them, by file and count, until it moves into tenant data
 * or a pack. Kinyarwanda's money and phone rules sit in the kernel's money
 * formatter and validators; the capabilities layer (money formats, ordering)
 * takes them. The list may only shrink: a file that no longer names them must
 * leave it, and a new one fails the test.
 */
const NOT_YET_MOVED: Record<string, number> = {
  "shared/contract/validators.ts": 3,
  "shared/contract/wa_id.ts": 1,
};

/** Each file of `folders` whose code names a literal, with how many times. */
export async function literalsIn(folders: readonly string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const folder of folders) {
    for await (const path of sourceFiles(folder)) {
      const code = withoutComments(await Deno.readTextFile(new URL(path, ROOT)));
      const count = [...code.matchAll(LITERALS)].length;
      if (count) found[path] = count;
    }
  }
  return found;
}

Deno.test("the kernel, the agent and the channels name no tenant, country or currency", async () => {
  const found = await literalsIn(NEUTRAL_FOLDERS);
  const fresh = Object.entries(found)
    .filter(([path, count]) => count > (NOT_YET_MOVED[path] ?? 0))
    .map(([path, count]) => `${path}: ${count}`);
  assert.deepEqual(fresh, [], "name the tenant's brand/country/currency from its row instead");
  const moved = Object.entries(NOT_YET_MOVED)
    .filter(([path, count]) => (found[path] ?? 0) < count)
    .map(([path]) => path);
  assert.deepEqual(moved, [], "these moved out: shrink NOT_YET_MOVED");
});

Deno.test("the literal scan finds code and skips comments", () => {
  const code = withoutComments(
    [
      "/** EasyMO's comment. */",
      "// Rwanda",
      'const url = "https://x.example"; // RWF',
      'const brand = "EasyMO";',
    ].join("\n"),
  );
  assert.deepEqual([...code.matchAll(LITERALS)].map((match) => match[0]), ["EasyMO"]);
  assert.ok(code.includes("https://x.example"));
});
