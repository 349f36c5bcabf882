/**
 * Generates the synthetic document fixtures: renders each document's HTML
 * with real (headless) Chromium, degrades it as a phone camera would, and
 * writes `testing/documents/fixtures/<set>/<id>.jpg` with a `manifest.json`
 * of the fields each must yield. Deterministic from the seed.
 *
 * The sets: `dev` (the engine is tuned on it), `heldout` (never tuned
 * on), both in the project's own layout; `families`: every layout family
 * of `layouts.ts` under every kind of damage, for leave-one-layout-out
 * measurement; `unseen`, `new_dev` / `new_blind` and `fresh_dev` /
 * `fresh_blind` (and `dark_*`, `stress_*`, `sixth_*`, `seventh_*`, `stress2_*`, `eighth_*`, `stress3_*`, `ninth_*`, `tenth_*`): the later
 * rounds' families, each split into a half tuned on and a half measured blind;
 * `comb_study`: fresh pages of the sixth round's one-character-per-box family;
 * `scenarios`: the insurance scenarios' cards.
 *
 * Run: `deno run -A testing/documents/generate.ts [--set dev|heldout|families|fresh_dev|…|all]`.
 *
 * @module
 */
import { type Condition, CONDITIONS, DAMAGES, degrade } from "./degrade.ts";
import {
  DARK_BLIND,
  DARK_DEV,
  FAMILIES,
  type Family,
  familyDocument,
  type FamilyDocumentType,
  FRESH_BLIND,
  FRESH_DEV,
  NEW_BLIND,
  NEW_DEV,
  NEW_FAMILIES,
  type RegistrationChoice,
} from "./layouts.ts";
import { photographed, STRESS_BLIND, STRESS_DEV } from "./layouts_image_stress.ts";
import { photographed2, STRESS2_BLIND, STRESS2_DEV } from "./layouts_image_stress2.ts";
import { photographed3, STRESS3_BLIND, STRESS3_DEV } from "./layouts_image_stress3.ts";
import { SIXTH_BLIND, SIXTH_DEV } from "./layouts_sixth.ts";
import { SEVENTH_BLIND, SEVENTH_DEV } from "./layouts_seventh.ts";
import { EIGHTH_BLIND, EIGHTH_DEV } from "./layouts_eighth.ts";
import { NINTH_BLIND, NINTH_DEV } from "./layouts_ninth.ts";
import { TENTH_BLIND, TENTH_DEV } from "./layouts_tenth.ts";
import {
  type Random,
  seededRandom,
  type SyntheticDocument,
  syntheticDocument,
  type SyntheticDocumentType,
} from "./synthetic.ts";

/** One fixture in a set's manifest. */
export interface FixtureEntry {
  /** File name inside the set's folder. */
  file: string;
  /** The document type, or `not_a_document`. */
  type: SyntheticDocumentType | "not_a_document";
  /** What it is (`receipt`, `car_photo`, `single_word`, or the type). */
  kind: string;
  /** The capture condition. */
  condition: Condition;
  /** The fields that must be read (empty for non-documents and unreadable ones). */
  fields: Record<string, string>;
  /** The layout family (the `families` set only). */
  family?: Family;
  /** The card edition (the `families` set only). */
  edition?: "old" | "new";
}

/**
 * The sets, each with its own seed. `families` holds every layout family
 * under every kind of damage (bench/ocr_accuracy.ts reports it per family,
 * tuned beside left-out).
 */
export const SETS = {
  dev: 20261124,
  heldout: 77_0342,
  families: 2026_1126,
  scenarios: 2026_1127,
  unseen: 2026_1128,
  new_dev: 2026_1129,
  new_blind: 2026_1130,
  fresh_dev: 2026_1131,
  fresh_blind: 2026_1132,
  dark_dev: 2026_1133,
  dark_blind: 2026_1134,
  stress_dev: 2026_1135,
  stress_blind: 2026_1136,
  // The same seeds as the image-stress sets: the families differ, so the pages do.
  sixth_dev: 2026_1135,
  sixth_blind: 2026_1136,
  seventh_dev: 2026_1137,
  seventh_blind: 2026_1138,
  // Fresh pages of the sixth round's one-character-per-box family (its `sixth_blind` pages stay
  // unopened): what the field reader's joining of per-character boxes was studied on.
  comb_study: 2026_1139,
  // The image side's second stress round, written beside the seventh round's reader families:
  // the same seeds as seventh_*, different families, so different pages.
  stress2_dev: 2026_1137,
  stress2_blind: 2026_1138,
  eighth_dev: 2026_1140,
  eighth_blind: 2026_1141,
  // The image side's eighth round, written beside the reader's eighth round: the same seeds as
  // eighth_*, different families, so different pages.
  stress3_dev: 2026_1140,
  stress3_blind: 2026_1141,
  ninth_dev: 2026_1142,
  ninth_blind: 2026_1143,
  tenth_dev: 2026_1144,
  tenth_blind: 2026_1145,
} as const;

/** Documents per layout family in the `families` set: registrations weigh most (insurance). */
const PER_FAMILY: FamilyDocumentType[] = [
  "vehicle_registration",
  "vehicle_registration",
  "vehicle_registration",
  "license",
  "id_card",
];

/** Where the fixtures live. */
export const FIXTURES = new URL("./fixtures/", import.meta.url);

const DOCUMENT_TYPES: SyntheticDocumentType[] = ["vehicle_registration", "license", "id_card"];

/** The plan of one set: every document type in every condition, policies, refusals. */
function plan(): Planned[] {
  const items: Planned[] = [];
  for (const kind of DOCUMENT_TYPES) {
    for (const condition of CONDITIONS) items.push({ kind, condition });
  }
  items.push({ kind: "policy", condition: "clean" }, { kind: "policy", condition: "rotated" });
  items.push({ kind: "vehicle_registration", condition: "unreadable" });
  items.push({ kind: "receipt", condition: "clean" }, { kind: "car_photo", condition: "clean" });
  items.push({ kind: "single_word", condition: "clean" });
  return items;
}

/** One planned page of a set: a plain document of a kind, or a layout family's document. */
export type Planned =
  | { kind: Parameters<typeof syntheticDocument>[0]; condition: Condition }
  | {
    family: Family;
    type: FamilyDocumentType;
    condition: Condition;
    choice?: RegistrationChoice & { edition?: "old" | "new" };
  };

/**
 * The `scenarios` set: new-edition registrations the insurance scenarios send, in layouts
 * other than the dev set's (a moto taxi's card, a private car's).
 */
function scenarioPlan(): Planned[] {
  return [
    {
      family: "two_column_below",
      type: "vehicle_registration",
      condition: "clean",
      choice: { moto: true, usage: "taxi-moto", edition: "new" },
    },
    {
      family: "below",
      type: "vehicle_registration",
      condition: "clean",
      choice: { moto: false, usage: "private", edition: "new" },
    },
    {
      family: "right_inline",
      type: "vehicle_registration",
      condition: "rotated",
      choice: { moto: true, usage: "private", edition: "new" },
    },
  ];
}

/** Each family's documents of `types`, in order, the damage cycling over them all. */
function damaged(families: readonly Family[], types: readonly FamilyDocumentType[]): Planned[] {
  let next = 0;
  return families.flatMap((family) =>
    types.map((type) => ({ family, type, condition: DAMAGES[next++ % DAMAGES.length] }))
  );
}

/** The `families` set: each family's documents, damage cycling over them all; refusals. */
function familyPlan(): Planned[] {
  const items = damaged(FAMILIES, PER_FAMILY);
  items.push({ family: "below", type: "vehicle_registration", condition: "unreadable" });
  items.push({ family: "two_column_right", type: "license", condition: "unreadable" });
  items.push({ kind: "receipt", condition: "clean" }, { kind: "car_photo", condition: "glare" });
  items.push({ kind: "single_word", condition: "grain" });
  return items;
}

/**
 * The `unseen` set: the families written after the first nine were looked at
 * (`NEW_FAMILIES`), damage cycling over them; a receipt and an unreadable blur.
 */
function unseenPlan(): Planned[] {
  const items = damaged(NEW_FAMILIES, PER_FAMILY);
  items.push({ family: "photo_panel", type: "id_card", condition: "unreadable" });
  items.push({ kind: "receipt", condition: "rotated" });
  return items;
}

/**
 * The `new_dev` and `new_blind` sets: the third round's families
 * (`NEW_DEV` / `NEW_BLIND`) or the fourth round's (`FRESH_DEV` /
 * `FRESH_BLIND`), ten documents each with damage cycling over them
 * all; an unreadable blur, a receipt, a car photo and a word to refuse.
 */
function newerPlan(families: readonly Family[]): Planned[] {
  const items = damaged(families, [...PER_FAMILY, ...PER_FAMILY]);
  items.push({ family: families[0], type: "vehicle_registration", condition: "unreadable" });
  items.push({ kind: "receipt", condition: "clean" }, { kind: "car_photo", condition: "rotated" });
  items.push({ kind: "single_word", condition: "jpeg" });
  return items;
}

/** How a set's pages become the pictures it stores (see {@link generateSet}). */
export interface SetCamera {
  /**
   * The stored picture of one planned page; the damage it draws comes from the set's `random`,
   * after the document's own draws, so the next page's draws follow on from them.
   */
  shoot(document: SyntheticDocument, item: Planned, random: Random): Promise<Uint8Array>;
  /** Lets go of what it holds (a browser). */
  close(): Promise<void>;
}

/**
 * The camera the stored fixtures were made with: real (headless) Chromium renders the page (a
 * family card: the card itself), the family's own camera (`photographed*`) changes it, and
 * `degrade` applies the set's damage.
 */
async function chromiumCamera(): Promise<SetCamera> {
  // Loaded here, not at the top: readers of the stored fixtures never start a browser.
  const { launchChromium } = await import("../browser.ts");
  const launched = await launchChromium();
  if (!launched) throw new Error("Chromium is missing: run scripts/ci/install_chromium.sh");
  const page = await launched.browser.newPage().catch(async (error) => {
    await launched.close();
    throw error;
  });
  return {
    async shoot(document, item, random) {
      await page.setViewportSize(document.viewport);
      await page.setContent(document.html);
      // A family card is as tall as its layout: the card itself is photographed.
      const card = "family" in item ? await page.$(".card") : null;
      const png = card
        ? await card.screenshot({ type: "png" })
        : await page.screenshot({ type: "png", fullPage: false });
      const shot = "family" in item
        ? await photographed3(
          item.family,
          await photographed2(item.family, await photographed(item.family, png)),
        )
        : png;
      return await degrade(new Uint8Array(shot), item.condition, random);
    },
    close: () => launched.close(),
  };
}

/**
 * Renders and writes one set; answers its manifest. `camera` replaces Chromium and the damage
 * (`fixture_hashes.ts` records each page's HTML instead); `write: false` writes no file.
 */
export async function generateSet(
  set: keyof typeof SETS,
  options: { camera?: SetCamera; write?: boolean } = {},
): Promise<FixtureEntry[]> {
  const write = options.write ?? true;
  const camera = options.camera ?? await chromiumCamera();
  const random = seededRandom(SETS[set]);
  const dir = new URL(`${set}/`, FIXTURES);
  if (write) await Deno.mkdir(dir, { recursive: true });
  const manifest: FixtureEntry[] = [];
  try {
    const items: Planned[] = set === "families"
      ? familyPlan()
      : set === "scenarios"
      ? scenarioPlan()
      : set === "unseen"
      ? unseenPlan()
      : set === "new_dev"
      ? newerPlan(NEW_DEV)
      : set === "new_blind"
      ? newerPlan(NEW_BLIND)
      : set === "fresh_dev"
      ? newerPlan(FRESH_DEV)
      : set === "fresh_blind"
      ? newerPlan(FRESH_BLIND)
      : set === "dark_dev"
      ? newerPlan(DARK_DEV)
      : set === "dark_blind"
      ? newerPlan(DARK_BLIND)
      : set === "stress_dev"
      ? newerPlan(STRESS_DEV)
      : set === "stress_blind"
      ? newerPlan(STRESS_BLIND)
      : set === "sixth_dev"
      ? newerPlan(SIXTH_DEV)
      : set === "sixth_blind"
      ? newerPlan(SIXTH_BLIND)
      : set === "seventh_dev"
      ? newerPlan(SEVENTH_DEV)
      : set === "seventh_blind"
      ? newerPlan(SEVENTH_BLIND)
      : set === "comb_study"
      ? newerPlan(["comb_boxes"])
      : set === "stress2_dev"
      ? newerPlan(STRESS2_DEV)
      : set === "stress2_blind"
      ? newerPlan(STRESS2_BLIND)
      : set === "eighth_dev"
      ? newerPlan(EIGHTH_DEV)
      : set === "eighth_blind"
      ? newerPlan(EIGHTH_BLIND)
      : set === "stress3_dev"
      ? newerPlan(STRESS3_DEV)
      : set === "stress3_blind"
      ? newerPlan(STRESS3_BLIND)
      : set === "ninth_dev"
      ? newerPlan(NINTH_DEV)
      : set === "ninth_blind"
      ? newerPlan(NINTH_BLIND)
      : set === "tenth_dev"
      ? newerPlan(TENTH_DEV)
      : set === "tenth_blind"
      ? newerPlan(TENTH_BLIND)
      : plan();
    for (const [index, item] of items.entries()) {
      const document: SyntheticDocument & { edition?: "old" | "new" } = "family" in item
        ? familyDocument(item.type, item.family, random, item.choice)
        : syntheticDocument(item.kind, random);
      const jpeg = await camera.shoot(document, item, random);
      const name = "family" in item ? `${item.family}_${document.kind}` : document.kind;
      const file = `${String(index + 1).padStart(2, "0")}_${name}_${item.condition}.jpg`;
      if (write) await Deno.writeFile(new URL(file, dir), jpeg);
      const unreadable = item.condition === "unreadable";
      manifest.push({
        file,
        type: unreadable ? "not_a_document" : document.type,
        kind: unreadable ? `unreadable_${document.kind}` : document.kind,
        condition: item.condition,
        fields: unreadable ? {} : document.fields,
        ...("family" in item ? { family: item.family, edition: document.edition } : {}),
      });
    }
  } finally {
    await camera.close();
  }
  if (!write) return manifest;
  await Deno.writeTextFile(
    new URL("manifest.json", dir),
    JSON.stringify(manifest, null, 2) + "\n",
  );
  return manifest;
}

/** Reads a set's manifest. */
export async function readManifest(set: keyof typeof SETS): Promise<FixtureEntry[]> {
  return JSON.parse(await Deno.readTextFile(new URL(`${set}/manifest.json`, FIXTURES)));
}

/** Reads one fixture's bytes. */
export function readFixture(set: keyof typeof SETS, file: string): Promise<Uint8Array> {
  return Deno.readFile(new URL(`${set}/${file}`, FIXTURES));
}

if (import.meta.main) {
  const which = Deno.args.includes("--set") ? Deno.args[Deno.args.indexOf("--set") + 1] : "all";
  for (const set of Object.keys(SETS) as Array<keyof typeof SETS>) {
    if (which !== "all" && which !== set) continue;
    const manifest = await generateSet(set);
    console.log(`${set}: ${manifest.length} images in ${new URL(`${set}/`, FIXTURES).pathname}`);
  }
}
