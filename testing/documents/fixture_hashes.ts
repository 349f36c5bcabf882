/**
 * A fingerprint of every fixture set's pages, so a change to the generators
 * (`synthetic.ts`, `layouts*.ts`, `round_generator.ts`) that would alter any
 * page shows before anyone regenerates a set: the published figures of every
 * set were measured on the pages as they are.
 *
 * Each set is planned and its documents made exactly as `generate.ts` makes
 * them (the same plan, the same seeded generator, the same order), but a
 * recording camera stands in for Chromium and the damage: it hashes what
 * Chromium would be given (the HTML, the viewport) with what must be read
 * (type, kind, expected fields, edition) and the generator's next draw (so a
 * page that draws once more or once less shows even when its HTML does
 * not). Recorded per set and per family in `fixture_hashes.json`; the test
 * beside this file compares them.
 *
 * Run: `deno task fixtures:hash` (compare; exits 1 on a difference) or
 * `deno task fixtures:hash --write` (record anew: only for a change meant to
 * alter the pages, whose sets are then regenerated and measured again).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { generateSet, type SetCamera, SETS } from "./generate.ts";

/** One set's fingerprint. */
export interface SetHashes {
  /** Pages planned. */
  pages: number;
  /** Every page and the manifest, in order. */
  sha256: string;
  /** Per layout family (or plain kind), its pages in order. */
  families: Record<string, string>;
}

/** Where the recorded fingerprints live. */
export const HASHES_FILE = new URL("./fixture_hashes.json", import.meta.url);

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The fingerprint of one set's pages as the generators make them now. */
export async function setHashes(set: keyof typeof SETS): Promise<SetHashes> {
  const pages: Array<{ group: string; hash: string }> = [];
  const camera: SetCamera = {
    shoot(document, item, random) {
      pages.push({
        group: "family" in item ? item.family : item.kind,
        hash: sha256(JSON.stringify({
          html: document.html,
          viewport: document.viewport,
          type: document.type,
          kind: document.kind,
          fields: document.fields,
          edition: (document as { edition?: string }).edition ?? null,
          next: random(),
        })),
      });
      return Promise.resolve(new Uint8Array());
    },
    close: () => Promise.resolve(),
  };
  const manifest = await generateSet(set, { camera, write: false });
  const families: Record<string, string[]> = {};
  for (const page of pages) (families[page.group] ??= []).push(page.hash);
  return {
    pages: pages.length,
    sha256: sha256(JSON.stringify({ pages: pages.map((page) => page.hash), manifest })),
    families: Object.fromEntries(
      Object.entries(families).sort(([a], [b]) => a.localeCompare(b)).map((
        [group, hashes],
      ) => [group, sha256(hashes.join("\n"))]),
    ),
  };
}

/** Every set's fingerprint, in {@link SETS} order. */
export async function allSetHashes(): Promise<Record<string, SetHashes>> {
  const out: Record<string, SetHashes> = {};
  for (const set of Object.keys(SETS) as Array<keyof typeof SETS>) out[set] = await setHashes(set);
  return out;
}

/** The recorded fingerprints (`fixture_hashes.json`). */
export async function recordedHashes(): Promise<Record<string, SetHashes>> {
  return JSON.parse(await Deno.readTextFile(HASHES_FILE));
}

/**
 * What differs between the recorded fingerprints and the current ones, one line a set or
 * family (`sixth_dev: value_above` …); empty when every page is as recorded.
 */
export function hashDifferences(
  recorded: Record<string, SetHashes>,
  current: Record<string, SetHashes>,
): string[] {
  const out: string[] = [];
  for (const set of new Set([...Object.keys(recorded), ...Object.keys(current)])) {
    const was = recorded[set];
    const now = current[set];
    if (!was || !now) {
      out.push(`${set}: ${was ? "no longer generated" : "not recorded"}`);
      continue;
    }
    if (was.sha256 === now.sha256 && was.pages === now.pages) continue;
    const groups = new Set([...Object.keys(was.families), ...Object.keys(now.families)]);
    const changed = [...groups].filter((group) => was.families[group] !== now.families[group]);
    out.push(
      `${set}: ${was.pages} → ${now.pages} pages; changed: ${
        changed.length ? changed.join(", ") : "the manifest only"
      }`,
    );
  }
  return out;
}

if (import.meta.main) {
  const current = await allSetHashes();
  if (Deno.args.includes("--write")) {
    await Deno.writeTextFile(HASHES_FILE, JSON.stringify(current, null, 2) + "\n");
    console.log(`recorded ${Object.keys(current).length} sets in ${HASHES_FILE.pathname}`);
  } else {
    const differences = hashDifferences(await recordedHashes(), current);
    for (const line of differences) console.log(line);
    console.log(
      differences.length
        ? `${differences.length} set(s) differ from ${HASHES_FILE.pathname}`
        : `all ${Object.keys(current).length} sets as recorded`,
    );
    if (differences.length) Deno.exit(1);
  }
}
