/**
 * Layout families that stress the IMAGE a reader is given (issue 26, seventh
 * round, image side), written before the preprocessing was touched for them
 * and unlike every earlier family: a dense card in fine print photographed
 * close at about 600 px wide (print 9–11 px high, sharp, not compressed);
 * a fine diagonal hatch and rosette rings across the whole value area (not
 * the earlier sine-wave guilloche); dark values on pale pink, green or blue
 * boxes; a photo with a finger covering a corner and a strong vignette; a
 * laminated card with a wide specular glare band crossing two fields; a card
 * on a dark background turned 90°, 180° or 270°. Every card still goes
 * through the sets' usual damage on top. Split at random
 * ({@link STRESS2_SPLIT_SEED}) into {@link STRESS2_DEV} (tuned on) and
 * {@link STRESS2_BLIND} (measured before and once at the end, never studied).
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

/** The seventh round's image-side families. */
export const STRESS2_FAMILIES = [
  "dense_tiny",
  "hatch_rosette",
  "pastel_boxes",
  "finger_vignette",
  "laminate_band",
  "turned_dark",
] as const;

/** A family of the seventh round's image side. */
export type Stress2Family = typeof STRESS2_FAMILIES[number];

/** The seed that split {@link STRESS2_FAMILIES} (chosen before the split was seen). */
export const STRESS2_SPLIT_SEED = 2026_1127_0714;

/** The half of {@link STRESS2_FAMILIES} the image side may be tuned on (`stress2_dev` set). */
export const STRESS2_DEV: readonly Stress2Family[] =
  splitFamilies(STRESS2_FAMILIES, STRESS2_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`stress2_blind` set). */
export const STRESS2_BLIND: readonly Stress2Family[] =
  splitFamilies(STRESS2_FAMILIES, STRESS2_SPLIT_SEED).blind;

/** Whether `family` is one of this module's. */
export const isStress2Family: (family: string) => family is Stress2Family = familyGuard(
  STRESS2_FAMILIES,
);

/** Pale fills a card prints its values on, with the dark ink printed over them. */
const PASTELS = ["#f8c8d8", "#c8ecc8", "#c8dcf8", "#fde0c0", "#e0d0f4", "#f4f0b0"];

/** Fine print that fills a dense card between its fields (terms, as real cards print). */
const FINE_PRINT = [
  "This document remains the property of the issuing authority and must be produced on demand.",
  "Iyi nyandiko ni umutungo w'ikigo cyayitanze kandi igomba kwerekanwa igihe isabwe.",
  "Ce document reste la propriété de l'autorité de délivrance et doit être présenté sur demande.",
  "Any alteration renders this card void. Report loss within 48 hours to the nearest office.",
];

/** Fine hatch and rosette rings behind the values: thin, light, dense, at an angle. */
function hatchSvg(random: Random, width: number, height: number): string {
  const colour = pick(random, ["#9bb7d4", "#d4a3b8", "#a8c8a0", "#c0a8d8"]);
  const step = 4 + random() * 3;
  const angle = pick(random, [30, 45, 60, -45]);
  const lines: string[] = [];
  const span = width + height;
  for (let k = -span; k < span; k += step) {
    lines.push(`<line x1="${k.toFixed(1)}" y1="0" x2="${k.toFixed(1)}" y2="${span}"/>`);
  }
  const rings: string[] = [];
  const cx = width * (0.3 + random() * 0.4);
  const cy = height * (0.35 + random() * 0.3);
  for (let r = 10; r < width; r += 7 + random() * 3) {
    rings.push(`<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${r.toFixed(1)}"/>`);
  }
  const opacity = (0.5 + random() * 0.35).toFixed(2);
  return `<svg class="bg" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"
    fill="none" stroke="${colour}" stroke-width="${(0.7 + random() * 0.5).toFixed(1)}"
    opacity="${opacity}"><g transform="rotate(${angle} ${width / 2} ${height / 2})">${
    lines.join("")
  }</g>${rings.join("")}</svg>`;
}

/**
 * Renders a seventh-round card: the HTML of a `.card` element the generator
 * photographs (for `finger_vignette` and `turned_dark`, the whole photo).
 */
export function renderStress2(
  family: Stress2Family,
  random: Random,
  title: string[],
  items: Array<{ key: string | null; label: string; shown: string }>,
): { html: string; width: number } {
  const card = drawStressCard(random, title, items);
  const { font, paper, gap, columns, field } = card;
  let { size, width } = card;
  const { head } = card;
  let { body } = card;
  let css = "";
  let overlay = "";
  let outer: ((card: string) => string) | null = null;
  let photoWidth = 0;
  switch (family) {
    case "dense_tiny": {
      // A dense card photographed close: ~600 px wide, print 9–11 px, fine print between rows.
      width = 580 + Math.floor(random() * 60);
      size = 9 + Math.floor(random() * 3);
      const fine = (index: number) =>
        index % 3 === 2
          ? `<div class="fp">${escapeHtml(FINE_PRINT[index % FINE_PRINT.length])}</div>`
          : "";
      body = `<div class="g">${
        items.map((item, index) => field(item) + fine(index)).join("")
      }</div>`;
      css = `.f{margin:${Math.max(1, gap - 3)}px 0}.v{font-weight:bold}
        .fp{font-size:${size - 2}px;color:#555;grid-column:1/-1;margin:1px 0}
        .head{gap:8px}.seal{width:30px;height:30px}`;
      break;
    }
    case "hatch_rosette": {
      overlay = hatchSvg(random, width, 900);
      css = `.bg{position:absolute;left:0;top:0;z-index:0}
        .head,.title,.g{position:relative;z-index:1}.f{margin:${gap}px 0}
        .v{font-weight:${pick(random, ["normal", "bold"])}}`;
      break;
    }
    case "pastel_boxes": {
      // Each value on a pale fill, dark ink over it; the label's cell a lighter tint or none.
      const fills = [pick(random, PASTELS), pick(random, PASTELS)];
      const round = pick(random, [0, 4, 10]);
      body = `<div class="g">${
        items.map((item, index) => field(item, ` style="--fill:${fills[index % 2]}"`)).join("")
      }</div>`;
      css = `.v{display:inline-block;background:var(--fill);color:#1a1a1a;padding:4px 10px;
        border-radius:${round}px;margin-top:2px;min-width:40%}
        .l{color:#333}.f{margin:${gap + 2}px 0}`;
      break;
    }
    case "finger_vignette": {
      // The whole photo: a strong vignette and a finger over one corner of the card.
      const corner = pick(random, ["left bottom", "right bottom", "left top", "right top"]);
      const [hx, vy] = corner.split(" ");
      const depth = (0.55 + random() * 0.25).toFixed(2);
      photoWidth = Math.round(width * 1.1);
      // Over the card's border and margin only: what it hides is no field (a value under a
      // finger is not the reader's to find).
      const fingerTurn = (vy === "bottom" ? 0 : 180) + (hx === "left" ? 8 : -8);
      outer = (card) =>
        `<div class="card photo" style="width:${photoWidth}px">${card}<div class="vig"></div>` +
        `<div class="finger" style="${hx}:-45px;${vy}:-60px;transform:rotate(${fingerTurn}deg)">` +
        `</div></div>`;
      css = `.f{margin:${gap}px 0}.v{font-weight:bold}
        .photo{position:relative;padding:40px 0;border:0;background:#6b5a48;display:flex;
          justify-content:center;overflow:hidden}
        .vig{position:absolute;inset:0;z-index:4;pointer-events:none;
          background:radial-gradient(ellipse 62% 58% at 50% 50%,rgba(0,0,0,0) 55%,
          rgba(0,0,0,${depth}) 100%)}
        .finger{position:absolute;z-index:5;width:110px;height:230px;border-radius:55px 55px 40px 40px;
          background:radial-gradient(ellipse 60% 50% at 40% 30%,#e2b08c,#b57a55 70%,#8a5638);
          box-shadow:4px 6px 16px rgba(0,0,0,.5)}`;
      break;
    }
    case "laminate_band": {
      // A wide specular band across the card at an angle, washing out two fields' print.
      const angle = pick(random, [20, 35, -25, -40]);
      const at = 35 + Math.floor(random() * 30);
      const strength = (0.72 + random() * 0.13).toFixed(2);
      overlay = `<div class="sheen"></div>`;
      css = `.f{margin:${gap}px 0}.v{font-weight:bold}
        .sheen{position:absolute;inset:0;z-index:3;pointer-events:none;
          background:linear-gradient(${angle + 90}deg,rgba(255,255,255,0) ${at - 12}%,
          rgba(255,255,255,${strength}) ${at - 4}%,rgba(255,255,255,${strength}) ${at + 4}%,
          rgba(255,255,255,0) ${at + 12}%)}`;
      break;
    }
    case "turned_dark": {
      // The card on a dark background; turned a quarter, a half or three quarters (see `turned`).
      css = `.f{margin:${gap}px 0}.v{font-weight:bold}`;
      photoWidth = width + 120;
      outer = (card) => `<div class="card photo" style="width:${photoWidth}px">${card}</div>`;
      css += `.photo{padding:60px;border:0;border-radius:0;
        background:radial-gradient(circle at 30% 40%,#3a3430,#15120f)}`;
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
    extraCss: ".photo{width:auto}",
  });
  return { html, width: outer ? photoWidth + 20 : width };
}

/**
 * What the family's camera did before the set's damage: a `turned_dark` card
 * is turned 90°, 180° or 270°. Other families'
 * pictures pass unchanged. Draws from its own generator (seeded by the
 * picture), so the sets' shared generator, and every other set's pages, stay
 * as they were.
 */
export async function photographed2(family: string, png: Uint8Array): Promise<Uint8Array> {
  if (family !== "turned_dark") return png;
  const random = seededRandom(png.length);
  const image = await Jimp.read(Buffer.from(png));
  const quarters = pick(random, [1, 2, 3]);
  // Turned pixel by pixel: jimp's `rotate` keeps the canvas, cutting a quarter-turned card off.
  const { width, height, data } = image.bitmap;
  const turned = new Jimp({
    width: quarters === 2 ? width : height,
    height: quarters === 2 ? height : width,
  });
  const out = turned.bitmap.data;
  const outWidth = turned.bitmap.width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Clockwise by 90° × quarters.
      const [tx, ty] = quarters === 1
        ? [height - 1 - y, x]
        : quarters === 2
        ? [width - 1 - x, height - 1 - y]
        : [y, width - 1 - x];
      const from = (y * width + x) * 4;
      const to = (ty * outWidth + tx) * 4;
      for (let c = 0; c < 4; c++) out[to + c] = data[from + c];
    }
  }
  return new Uint8Array(await turned.getBuffer("image/png"));
}
