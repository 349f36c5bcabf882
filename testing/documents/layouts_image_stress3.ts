/**
 * Layout families that stress the IMAGE a reader is given (issue 26, eighth
 * round, image side), written before the preprocessing was touched for them
 * and unlike every earlier family: a card photographed at a steep angle (a
 * trapezoid, its far edge 55–70% of its near one); motion blur along one
 * axis (the phone moved while the shutter was open); JPEG at quality 5–10,
 * its 8 px blocks visible; a card half in deep shadow with a hard edge and
 * the rest in bright sun; a screenshot forwarded twice on WhatsApp (shrunk
 * and recompressed, then blown up, then again); a faded thermal print whose
 * ink bled. Every card still goes through the sets' usual damage on top.
 * Split at random ({@link STRESS3_SPLIT_SEED}) into {@link STRESS3_DEV}
 * (tuned on) and {@link STRESS3_BLIND} (measured before and once at the end,
 * never studied).
 *
 * This module imports nothing from `layouts.ts` (which dispatches to it), so
 * the two stay free of an import cycle.
 *
 * @module
 */
import { Jimp } from "jimp";
import { familyGuard, pick, type Random, seededRandom, splitFamilies } from "./synthetic.ts";
import { drawStressCard, stressPage } from "./round_generator.ts";

/** The eighth round's image-side families. */
export const STRESS3_FAMILIES = [
  "steep_perspective",
  "motion_blur",
  "jpeg_blocking",
  "sun_shadow",
  "whatsapp_twice",
  "faded_thermal",
] as const;

/** A family of the eighth round's image side. */
export type Stress3Family = typeof STRESS3_FAMILIES[number];

/** The seed that split {@link STRESS3_FAMILIES} (chosen before the split was seen). */
export const STRESS3_SPLIT_SEED = 2026_1127_1005;

/** The half of {@link STRESS3_FAMILIES} the image side may be tuned on (`stress3_dev` set). */
export const STRESS3_DEV: readonly Stress3Family[] =
  splitFamilies(STRESS3_FAMILIES, STRESS3_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`stress3_blind` set). */
export const STRESS3_BLIND: readonly Stress3Family[] =
  splitFamilies(STRESS3_FAMILIES, STRESS3_SPLIT_SEED).blind;

/** Whether `family` is one of this module's. */
export const isStress3Family: (family: string) => family is Stress3Family = familyGuard(
  STRESS3_FAMILIES,
);

/**
 * Renders an eighth-round card: the HTML of the `.card` element the generator
 * photographs. Only `faded_thermal` differs in print; the other families'
 * damage is the camera's ({@link photographed3}).
 */
export function renderStress3(
  family: Stress3Family,
  random: Random,
  title: string[],
  items: Array<{ key: string | null; label: string; shown: string }>,
): { html: string; width: number } {
  const { font, size, paper, gap, columns, width, head, body } = drawStressCard(
    random,
    title,
    items,
  );
  let ink = "#111";
  let css = `.f{margin:${gap}px 0}.v{font-weight:bold}`;
  let overlay = "";
  if (family === "faded_thermal") {
    // Thermal print fading: grey ink that bled into the paper, lighter streaks where the head
    // wore, the paper yellowing; values as faint as labels.
    const grey = 120 + Math.floor(random() * 45);
    ink = `rgb(${grey},${grey},${grey - 6})`;
    const bleed = (0.8 + random() * 0.9).toFixed(1);
    const streak = 14 + Math.floor(random() * 30);
    const fade = (0.25 + random() * 0.3).toFixed(2);
    overlay = `<div class="streaks"></div>`;
    css = `.f{margin:${gap}px 0}.v{font-weight:${pick(random, ["normal", "bold"])}}
      .card{background:#f7f2e4}
      .card *{text-shadow:0 0 ${bleed}px ${ink},0 0 ${bleed}px ${ink}}
      .streaks{position:absolute;inset:0;z-index:3;pointer-events:none;
        background:repeating-linear-gradient(90deg,rgba(247,242,228,0) 0px,
        rgba(247,242,228,0) ${streak}px,rgba(247,242,228,${fade}) ${streak + 3}px,
        rgba(247,242,228,${fade}) ${streak + 9}px,rgba(247,242,228,0) ${streak + 12}px)}`;
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
    selector: ".card",
    ink,
  });
  return { html, width };
}

type JimpImage = Awaited<ReturnType<typeof Jimp.read>>;

/**
 * What the family's camera did before the set's damage. Other families'
 * pictures pass unchanged. Draws from its own generator (seeded by the
 * picture), so the sets' shared generator, and every other set's pages, stay
 * as they were.
 */
export async function photographed3(family: string, png: Uint8Array): Promise<Uint8Array> {
  if (!isStress3Family(family) || family === "faded_thermal") return png;
  const random = seededRandom(png.length + 31);
  let image = await Jimp.read(Buffer.from(png)) as JimpImage;
  let quality = 0;
  switch (family) {
    case "steep_perspective":
      image = steep(image, random);
      quality = 80;
      break;
    case "motion_blur":
      motionBlur(image, random);
      quality = 85;
      break;
    case "jpeg_blocking":
      quality = 5 + Math.floor(random() * 6);
      break;
    case "sun_shadow":
      sunAndShadow(image, random);
      quality = 82;
      break;
    case "whatsapp_twice": {
      const { width } = image.bitmap;
      for (let pass = 0; pass < 2; pass++) {
        // Shrunk to a chat's preview size and recompressed, then viewed (blown up) and forwarded.
        image.resize({ w: Math.round(width * (0.38 + random() * 0.12)) });
        image = await Jimp.read(
          Buffer.from(
            await image.getBuffer("image/jpeg", { quality: 45 + Math.floor(random() * 15) }),
          ),
        ) as JimpImage;
        image.resize({ w: Math.round(width * (pass === 0 ? 1 : 0.8)) });
      }
      quality = 60;
      break;
    }
  }
  // The camera's own JPEG: the set's damage comes on top of it.
  const jpeg = await image.getBuffer("image/jpeg", { quality });
  const again = await Jimp.read(Buffer.from(jpeg));
  return new Uint8Array(await again.getBuffer("image/png"));
}

/**
 * The card photographed at a steep angle: one edge (top, bottom, left or right) 55–70% of the
 * opposite one, the rows towards it foreshortened as a camera's projection does, on a grey table.
 */
function steep(image: JimpImage, random: Random): JimpImage {
  const { width, height, data } = image.bitmap;
  const far = 0.55 + random() * 0.15;
  const side = pick(random, ["top", "bottom", "left", "right"]);
  const margin = 40;
  const outWidth = width + 2 * margin;
  const outHeight = height + 2 * margin;
  // Corners of the card in the photo, clockwise from the top left.
  const inset = (1 - far) / 2;
  const depth = 0.12 + random() * 0.1;
  let corners: Array<[number, number]> = [[0, 0], [width, 0], [width, height], [0, height]];
  if (side === "top") {
    corners = [[width * inset, height * depth], [width * (1 - inset), height * depth], [
      width,
      height,
    ], [0, height]];
  } else if (side === "bottom") {
    corners = [[0, 0], [width, 0], [width * (1 - inset), height * (1 - depth)], [
      width * inset,
      height * (1 - depth),
    ]];
  } else if (side === "left") {
    corners = [[width * depth, height * inset], [width, 0], [width, height], [
      width * depth,
      height * (1 - inset),
    ]];
  } else {
    corners = [[0, 0], [width * (1 - depth), height * inset], [
      width * (1 - depth),
      height * (1 - inset),
    ], [0, height]];
  }
  const shifted = corners.map(([x, y]) => [x + margin, y + margin] as [number, number]);
  // Photo point → card point: the homography from the photo's corners to the card's.
  const toCard = homography(shifted, [[0, 0], [width, 0], [width, height], [0, height]]);
  const out = new Jimp({ width: outWidth, height: outHeight, color: 0x8c8a85ff });
  const o = out.bitmap.data;
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const w = toCard[6] * x + toCard[7] * y + 1;
      const u = (toCard[0] * x + toCard[1] * y + toCard[2]) / w;
      const v = (toCard[3] * x + toCard[4] * y + toCard[5]) / w;
      if (u < 0 || v < 0 || u > width - 1 || v > height - 1) continue;
      // Bilinear: the far edge is shrunk, so each photo pixel covers more than one card pixel.
      const x0 = Math.floor(u), y0 = Math.floor(v);
      const x1 = Math.min(width - 1, x0 + 1), y1 = Math.min(height - 1, y0 + 1);
      const fx = u - x0, fy = v - y0;
      const to = (y * outWidth + x) * 4;
      for (let c = 0; c < 3; c++) {
        const a = data[(y0 * width + x0) * 4 + c] * (1 - fx) + data[(y0 * width + x1) * 4 + c] * fx;
        const b = data[(y1 * width + x0) * 4 + c] * (1 - fx) + data[(y1 * width + x1) * 4 + c] * fx;
        o[to + c] = a * (1 - fy) + b * fy;
      }
      o[to + 3] = 255;
    }
  }
  return out as unknown as JimpImage;
}

/** The 8 coefficients of the homography mapping each `from` point to its `to` point. */
function homography(from: Array<[number, number]>, to: Array<[number, number]>): number[] {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting on the 8 × 9 augmented matrix.
  for (let col = 0; col < 8; col++) {
    let best = col;
    for (let r = col + 1; r < 8; r++) {
      if (Math.abs(rows[r][col]) > Math.abs(rows[best][col])) best = r;
    }
    [rows[col], rows[best]] = [rows[best], rows[col]];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = rows[r][col] / rows[col][col];
      for (let k = col; k < 9; k++) rows[r][k] -= f * rows[col][k];
    }
  }
  return rows.map((row, i) => row[8] / row[i]);
}

/** The phone moved while the shutter was open: a box blur 6–13 px long along one direction. */
function motionBlur(image: JimpImage, random: Random): void {
  const { width, height, data } = image.bitmap;
  const length = 6 + Math.floor(random() * 8);
  const angle = pick(random, [0, 90, 20, -25]) * Math.PI / 180;
  const dx = Math.cos(angle), dy = Math.sin(angle);
  const source = new Uint8Array(data);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sums = [0, 0, 0];
      let count = 0;
      for (let k = 0; k < length; k++) {
        const t = k - (length - 1) / 2;
        const sx = Math.round(x + dx * t), sy = Math.round(y + dy * t);
        if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
        const at = (sy * width + sx) * 4;
        sums[0] += source[at];
        sums[1] += source[at + 1];
        sums[2] += source[at + 2];
        count++;
      }
      const to = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[to + c] = sums[c] / count;
    }
  }
}

/**
 * Part of the card in deep shadow (a hard edge: a wall's or a roof's, softened over a few
 * pixels), its light 20–32% of the rest and bluish; the rest in bright sun, washed out.
 */
function sunAndShadow(image: JimpImage, random: Random): void {
  const { width, height, data } = image.bitmap;
  const angle = (random() - 0.5) * 1.4;
  const nx = Math.cos(angle), ny = Math.sin(angle);
  const at = 0.3 + random() * 0.4;
  const edge = nx * width * at + ny * height * 0.5;
  const soft = 3 + random() * 5;
  const dim = 0.2 + random() * 0.12;
  const flip = random() < 0.5 ? 1 : -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = flip * (nx * x + ny * y - edge);
      const shade = d <= -soft ? 0 : d >= soft ? 1 : (d + soft) / (2 * soft);
      const to = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const sun = Math.min(255, data[to + c] * 1.08 + 28);
        const dark = data[to + c] * dim * (c === 2 ? 1.25 : 1);
        data[to + c] = Math.min(255, sun * (1 - shade) + dark * shade);
      }
    }
  }
}
