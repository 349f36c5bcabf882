import assert from "node:assert/strict";
import { SIXTH_FAMILIES } from "./layouts_sixth.ts";

// `familyDocument` (layouts.ts) picks a family's round by its name, asking the rounds in turn:
// a name two rounds share makes the later round's pages the earlier round's, unseen. The eighth
// round's prose family was once `prose_certificate`, a sixth-round name, and its `eighth_blind`
// pages were the sixth round's certificates.

/** Every name listed twice, with the lists that hold it (`name: LIST, LIST`), sorted by name. */
function duplicateFamilies(lists: Record<string, readonly string[]>): string[] {
  const holders = new Map<string, string[]>();
  for (const [list, families] of Object.entries(lists)) {
    for (const family of families) holders.set(family, [...holders.get(family) ?? [], list]);
  }
  return [...holders].filter(([, where]) => where.length > 1).sort(([a], [b]) => a.localeCompare(b))
    .map(([family, where]) => `${family}: ${where.join(", ")}`);
}

// A selection of the first round's families (the ones the reader was tuned on), not a round.
const SELECTIONS = new Set(["TUNED_FAMILIES"]);

/**
 * Every round's family list: each `…FAMILIES` export of every `layouts*.ts` module here, so a
 * new round's module is checked without being registered anywhere.
 */
async function roundFamilyLists(): Promise<Record<string, readonly string[]>> {
  const lists: Record<string, readonly string[]> = {};
  for await (const entry of Deno.readDir(new URL(".", import.meta.url))) {
    if (!/^layouts.*\.ts$/.test(entry.name) || entry.name.endsWith("_test.ts")) continue;
    const module: Record<string, unknown> = await import(new URL(entry.name, import.meta.url).href);
    for (const [name, value] of Object.entries(module)) {
      if (!name.endsWith("FAMILIES") || SELECTIONS.has(name) || !Array.isArray(value)) continue;
      lists[`${name} (${entry.name})`] = value;
    }
  }
  return lists;
}

Deno.test("no two rounds' layout families share a name", async () => {
  const lists = await roundFamilyLists();
  // The discovery must find the rounds, or the check below passes on nothing.
  for (const round of ["FAMILIES", "SIXTH_FAMILIES", "EIGHTH_FAMILIES", "STRESS3_FAMILIES"]) {
    assert.ok(Object.keys(lists).some((list) => list.startsWith(`${round} (`)), round);
  }
  assert.deepEqual(duplicateFamilies(lists), []);
});

Deno.test("a name two rounds share is reported with both rounds' lists", () => {
  // The eighth round's list as it was before its prose family was renamed.
  const eighthBefore = [
    "header_table",
    "leader_receipt",
    "prose_certificate",
    "icon_card",
    "checkbox_form",
    "split_values",
  ];
  assert.deepEqual(duplicateFamilies({ SIXTH: SIXTH_FAMILIES, EIGHTH: eighthBefore }), [
    "prose_certificate: SIXTH, EIGHTH",
  ]);
  assert.deepEqual(duplicateFamilies({ ONE: ["a", "b", "a"], TWO: ["c"] }), ["a: ONE, ONE"]);
});
