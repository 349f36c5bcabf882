/**
 * Layout families that stress the IMAGE a reader is given rather than where
 * its fields sit (issue 26, sixth round), written before the preprocessing
 * was touched for them: print on coloured bands in white or yellow (some
 * pairs as light as their band in grey: only the colour tells them apart);
 * values in coloured boxes; a guilloche security pattern behind the values; a
 * card photographed under a shadow falling across half of it, with a lamp's
 * glare; a phone held far away (a card about 500 px wide, its JPEG heavily
 * compressed); a card lying on a checked tablecloth, taking about 60% of the
 * photo and turned 10–15°. Every card still goes through the sets' usual
 * damage on top. Split at random ({@link STRESS_SPLIT_SEED}) into
 * {@link STRESS_DEV} (tuned on) and {@link STRESS_BLIND} (measured before and
 * once at the end, never studied).
 *
 * This module imports nothing from `layouts.ts` (which dispatches to it), so
 * the two stay free of an import cycle.
 *
 * @module
 */
import { Jimp } from "jimp";
import {
  escapeHtml,
  familyGuard,
  pick,
  type Random,
  seededRandom,
  splitFamilies,
} from "./synthetic.ts";
import { drawStressCard, stressPage } from "./round_generator.ts";

/** The sixth round's families. */
export const STRESS_FAMILIES = [
  "colour_bands",
  "value_pills",
  "guilloche",
  "shadow_glare",
  "far_small",
  "tablecloth",
] as const;

/** A family of the sixth round. */
export type StressFamily = typeof STRESS_FAMILIES[number];

/** The seed that split {@link STRESS_FAMILIES} (chosen before the split was seen). */
export const STRESS_SPLIT_SEED = 2026_1127_0415;

/** The half of {@link STRESS_FAMILIES} the image side may be tuned on (`stress_dev` set). */
export const STRESS_DEV: readonly StressFamily[] =
  splitFamilies(STRESS_FAMILIES, STRESS_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`stress_blind` set). */
export const STRESS_BLIND: readonly StressFamily[] =
  splitFamilies(STRESS_FAMILIES, STRESS_SPLIT_SEED).blind;

/** Whether `family` is one of this module's. */
export const isStressFamily: (family: string) => family is StressFamily = familyGuard(
  STRESS_FAMILIES,
);

/**
 * Band and print colours. The first pairs differ in grey as much as a
 * printer would make them; the last ones are about as light as their band in
 * grey (BT.709 luma within ~25 of 255), readable only by their colour.
 */
const BANDS: Array<{ band: string; ink: string }> = [
  { band: "#c62828", ink: "#ffffff" },
  { band: "#1565c0", ink: "#ffffff" },
  { band: "#2e7d32", ink: "#ffe14d" },
  { band: "#00897b", ink: "#ffffff" },
  { band: "#8e24aa", ink: "#ffd400" },
  { band: "#ef6c00", ink: "#ffffff" },
  // Near-isoluminant: yellow on light green, white on light sky blue, yellow on light cyan.
  { band: "#8bd88b", ink: "#ffd400" },
  { band: "#b3e0f7", ink: "#ffffff" },
  { band: "#7fd6e0", ink: "#ffe000" },
];

/** A guilloche: families of phase-shifted sine waves crossing, as on banknotes and IDs. */
function guillocheSvg(random: Random, width: number, height: number): string {
  const colours = pick(random, [
    ["#8fb3d9", "#d9a0c9"],
    ["#9cc99c", "#e0b880"],
    ["#b0a0e0", "#90c8d8"],
    ["#e09a9a", "#a0b8e0"],
  ]);
  const paths: string[] = [];
  const stroke = (0.9 + random() * 0.8).toFixed(1);
  const opacity = (0.55 + random() * 0.35).toFixed(2);
  for (const [index, colour] of colours.entries()) {
    const wavelength = 40 + random() * 60;
    const amplitude = 12 + random() * 30;
    const spacing = 6 + random() * 6;
    const slope = index === 0 ? 0 : 0.15;
    for (let k = 0; k * spacing < height + 2 * amplitude; k++) {
      const base = k * spacing - amplitude;
      const phase = k * 0.35 + index * 1.7;
      let d = "";
      for (let x = 0; x <= width; x += 8) {
        const y = base + amplitude * Math.sin(x / wavelength + phase) + slope * x;
        d += `${x === 0 ? "M" : "L"}${x} ${y.toFixed(1)}`;
      }
      paths.push(`<path d="${d}" stroke="${colour}"/>`);
    }
  }
  return `<svg class="gl" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"
    fill="none" stroke-width="${stroke}" opacity="${opacity}">${paths.join("")}</svg>`;
}

/**
 * Renders a sixth-round card: the HTML of a `.card` element the generator
 * photographs (for `tablecloth`, the whole photo: card and cloth).
 */
export function renderStress(
  family: StressFamily,
  random: Random,
  title: string[],
  items: Array<{ key: string | null; label: string; shown: string }>,
): { html: string; width: number } {
  const card = drawStressCard(random, title, items);
  const { font, paper, gap, columns, field } = card;
  let { size, width } = card;
  let { head, body } = card;
  let css = "";
  let overlay = "";
  let outer: ((card: string) => string) | null = null;
  switch (family) {
    case "colour_bands": {
      // Rows (or, in two columns, cells) on bands of two colours; the header too.
      const first = pick(random, BANDS);
      const second = pick(random, BANDS);
      const bandOf = (index: number) => (Math.floor(index / columns) % 2 === 0 ? first : second);
      body = `<div class="g">${
        items.map((item, index) =>
          field(
            item,
            ` style="background:${bandOf(index).band};color:${bandOf(index).ink}"`,
          )
        ).join("")
      }</div>`;
      head = `<div class="title" style="background:${first.band};color:${first.ink};` +
        `padding:8px 12px">${title.map(escapeHtml).join("<br>")}</div>`;
      css = `.f{margin:0;padding:${gap + 3}px 12px}.v{font-weight:bold}`;
      break;
    }
    case "value_pills": {
      // Labels in dark print on the paper; each value in a coloured box in white or yellow.
      const pill = pick(random, BANDS);
      const round = pick(random, [0, 6, 14]);
      css = `.v{display:inline-block;background:${pill.band};color:${pill.ink};font-weight:bold;
        padding:3px 10px;border-radius:${round}px;margin-top:2px}.f{margin:${gap + 2}px 0}`;
      break;
    }
    case "guilloche": {
      overlay = guillocheSvg(random, width, 900);
      css = `.gl{position:absolute;left:0;top:0;z-index:0}
        .head,.title,.g{position:relative;z-index:1}.f{margin:${gap}px 0}
        .v{font-weight:${pick(random, ["normal", "bold"])}}`;
      break;
    }
    case "shadow_glare": {
      // A shadow across half the card (a hand or phone between lamp and card) and a glare spot.
      const side = pick(random, ["to right", "to left", "to bottom", "to top"]);
      const depth = (0.5 + random() * 0.2).toFixed(2);
      const start = 35 + Math.floor(random() * 20);
      const gx = 20 + Math.floor(random() * 60);
      const gy = 25 + Math.floor(random() * 50);
      overlay = `<div class="shade"></div><div class="shine"></div>`;
      css = `.f{margin:${gap}px 0}.v{font-weight:bold}
        .shade{position:absolute;inset:0;z-index:2;pointer-events:none;
          background:linear-gradient(${side},rgba(0,0,0,0) ${start}%,rgba(20,15,10,${depth}) 100%)}
        .shine{position:absolute;inset:0;z-index:3;pointer-events:none;
          background:radial-gradient(ellipse 22% 18% at ${gx}% ${gy}%,rgba(255,255,255,.85),
          rgba(255,255,255,0) 100%)}`;
      break;
    }
    case "far_small": {
      // The phone far away: the whole card ~500 px wide (its JPEG compressed in `photographed`).
      width = 480 + Math.floor(random() * 80);
      size = 8 + Math.floor(random() * 2);
      css = `.f{margin:${Math.max(1, gap - 2)}px 0}.v{font-weight:bold}
        .head{gap:8px}.seal{width:26px;height:26px}`;
      break;
    }
    case "tablecloth": {
      // The card on a checked tablecloth, about 60% of the photo, turned 10–15°.
      const angle = (random() < 0.5 ? -1 : 1) * (10 + random() * 5);
      const cloth = pick(random, [
        ["#c62828", "#ffffff"],
        ["#1e4fa0", "#f4f4f4"],
        ["#2e7d32", "#fff8e0"],
      ]);
      const check = 18 + Math.floor(random() * 14);
      const photoWidth = Math.round(width / 0.72);
      outer = (card) =>
        `<div class="card photo" style="width:${photoWidth}px;height:${
          Math.round(photoWidth * 0.78)
        }px"><div class="turn" style="transform:rotate(${
          angle.toFixed(1)
        }deg)">${card}</div></div>`;
      css = `.f{margin:${gap}px 0}.v{font-weight:bold}
        .photo{position:relative;padding:0;border:0;display:flex;align-items:center;
          justify-content:center;background-color:${cloth[1]};
          background-image:linear-gradient(90deg,${cloth[0]}99 50%,transparent 50%),
          linear-gradient(0deg,${cloth[0]}99 50%,transparent 50%);
          background-size:${check * 2}px ${check * 2}px}
        .turn{box-shadow:6px 8px 14px rgba(0,0,0,.45)}`;
      break;
    }
  }
  const html = stressPage({
    width,
    paper,
    font,
    size,
    columns,
    css,
    overlay,
    head,
    body,
    outer,
    // Bands run edge to edge: no gap between a two-column card's cells.
    columnGap: family === "colour_bands" ? 0 : 34,
  });
  return { html, width: outer ? Math.round(width / 0.72) + 20 : width };
}

/**
 * What the family's camera did before the set's damage: a far-away phone's
 * photo is stored as a heavily compressed JPEG (quality 25–40). Other
 * families' pictures pass unchanged. Draws from its own generator (seeded by
 * the picture), so the sets' shared generator, and every other set's pages,
 * stay as they were.
 */
export async function photographed(family: string, png: Uint8Array): Promise<Uint8Array> {
  if (family !== "far_small") return png;
  const random = seededRandom(png.length);
  const image = await Jimp.read(Buffer.from(png));
  const jpeg = await image.getBuffer("image/jpeg", { quality: 25 + Math.floor(random() * 16) });
  return new Uint8Array(await (await Jimp.read(jpeg)).getBuffer("image/png"));
}
