/**
 * What a photo's colours tell before they are thrown away for one grey
 * channel, and what a camera's light does to the page:
 *
 * - {@link colourGrey}: print whose colour differs from its band's but whose
 *   grey does not (yellow on light green, white on light blue) vanishes in a
 *   grey picture; here a pixel that differs from its neighbourhood's
 *   background more in colour than in grey (and by less than 40 grey
 *   levels) is drawn as dark (on a light
 *   band) or light (on a dark one) as its colour difference says;
 * - {@link findCard}: a card lying on a busy background (a tablecloth, a
 *   patterned desk) and turned more than deskewing searches: the card's paper
 *   is the largest region of the centre's colour not touching the photo's
 *   edge; its angle and box let the page be turned upright and cropped before
 *   anything else measures it;
 * - {@link flattenIllumination}: a shadow falling across part of the page or
 *   light fading to one side: the paper's brightness is fitted as a smooth
 *   surface (a quadratic in x and y, robust to bands and glare) and divided
 *   out, so one threshold fits the whole page.
 *
 * Each answers the page unchanged when its evidence is absent, so pages
 * without colour tricks, on plain backgrounds and evenly lit read as before.
 *
 * @module
 */
import { Jimp } from "jimp";
import { ToolFailure } from "@shared/contract/result.ts";
import type { GreyPage } from "./page_image.ts";

/** A colour picture: `width × height` pixels of three bytes (red, green, blue), row by row. */
export interface ColourPage {
  /** Pixels a row. */
  width: number;
  /** Rows. */
  height: number;
  /** Three bytes a pixel. */
  rgb: Uint8Array;
}

/**
 * Decodes a JPEG, PNG or WebP photo keeping its colours.
 *
 * @throws {ToolFailure} VALIDATION_ERROR when the bytes are not an image jimp can decode.
 */
export async function decodeColour(bytes: Uint8Array): Promise<ColourPage> {
  let image;
  try {
    image = await Jimp.read(Buffer.from(bytes));
  } catch {
    throw new ToolFailure("VALIDATION_ERROR", "The file is not an image we can read (JPEG or PNG)");
  }
  const { width, height, data } = image.bitmap;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, p = 0, q = 0; i < width * height; i++, p += 4, q += 3) {
    rgb[q] = data[p];
    rgb[q + 1] = data[p + 1];
    rgb[q + 2] = data[p + 2];
  }
  return { width, height, rgb };
}

/**
 * A large photo brought down by a whole factor (each pixel the mean of a
 * `factor × factor` block) so that it is at most `maxWidth` wide or close
 * to it: a 12-megapixel phone photo is read at 1500 px, and its colours need
 * not be weighed pixel by pixel at 4000. A photo under twice `maxWidth`
 * comes back as it is.
 */
export function shrinkColour(page: ColourPage, maxWidth: number): ColourPage {
  const factor = Math.floor(page.width / maxWidth);
  if (factor < 2) return page;
  const width = Math.floor(page.width / factor);
  const height = Math.floor(page.height / factor);
  const sums = new Uint32Array(width * height * 3);
  for (let y = 0; y < height * factor; y++) {
    const row = Math.floor(y / factor) * width;
    for (let x = 0; x < width * factor; x++) {
      const q = (y * page.width + x) * 3;
      const s = (row + Math.floor(x / factor)) * 3;
      sums[s] += page.rgb[q];
      sums[s + 1] += page.rgb[q + 1];
      sums[s + 2] += page.rgb[q + 2];
    }
  }
  const rgb = new Uint8Array(sums.length);
  const area = factor * factor;
  for (let i = 0; i < sums.length; i++) rgb[i] = Math.round(sums[i] / area);
  return { width, height, rgb };
}

/** BT.709 luma, truncated: what `decodeGrey` gives (the preprocessing was tuned on it). */
function luma(r: number, g: number, b: number): number {
  return Math.floor(0.2126 * r + 0.7152 * g + 0.0722 * b);
}

/** The grey picture of a colour page, as `decodeGrey` makes it. */
export function lumaOf(page: ColourPage): GreyPage {
  const grey = new Uint8Array(page.width * page.height);
  const { rgb } = page;
  for (let i = 0, q = 0; i < grey.length; i++, q += 3) {
    grey[i] = luma(rgb[q], rgb[q + 1], rgb[q + 2]);
  }
  return { width: page.width, height: page.height, grey };
}

/**
 * How much of a colour difference counts as contrast. A grey difference of d
 * is a colour distance of √3·d, so at 0.55 a neutral pixel (black print,
 * grey shadow) never counts more than its grey does: only colour does.
 */
const COLOUR_WEIGHT = 0.55;
/** By how much a pixel's colour contrast must exceed its grey contrast to be redrawn. */
const COLOUR_MARGIN = 16;
/** A grey difference this large shows print as it is: only fainter differences are redrawn. */
const VISIBLE_GREY = 40;
/** The share of a page's pixels that must be hidden print for the page to be redrawn. */
const MIN_HIDDEN = 0.002;

/** What {@link colourGrey} did. */
export interface ColourGrey {
  /** The grey page. */
  page: GreyPage;
  /** Pixels redrawn from their colour (0: the page is its plain grey). */
  recoloured: number;
}

/**
 * The page in grey, print that only its colour sets apart from its band made
 * visible. Each pixel's background is its neighbourhood's dominant colour
 * (per cell of 1/90 of the width, the per-channel median, then the median of
 * the 3×3 cells around: print is a minority of any neighbourhood). Where
 * no pixel within 2 px differs from that background by 40 grey levels or
 * more (print its grey shows, white on orange, stays as it is, its soft
 * edges too) and `0.55 × colour distance` exceeds it by
 * more than 16, the pixel is drawn at the background's grey minus that
 * colour contrast (on a light band; plus, on a dark one, so light print on a
 * dark band stays light and is inverted with it). A page with fewer than
 * 0.2% such pixels is its plain grey, byte for byte.
 */
export function colourGrey(page: ColourPage): ColourGrey {
  const plain = lumaOf(page);
  const { width, height, rgb } = page;
  const cell = Math.max(4, Math.round(width / 90));
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const medians = cellMedians(page, cell, columns, rows);
  const background = medianOfNeighbours(medians, columns, rows);
  // Within 2 px of print its grey shows: that print's own soft edge (white on orange fades
  // through colours as light as the band), never redrawn, or letters come out hollow.
  const near = nearVisible(plain, background, cell, columns);
  const hidden = new Uint8Array(width * height);
  const target = new Uint8Array(width * height);
  let count = 0;
  for (let y = 0; y < height; y++) {
    const rowCell = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x++) {
      const c = (rowCell + Math.floor(x / cell)) * 3;
      const br = background[c], bg = background[c + 1], bb = background[c + 2];
      const q = (y * width + x) * 3;
      const dr = rgb[q] - br, dg = rgb[q + 1] - bg, db = rgb[q + 2] - bb;
      const contrast = COLOUR_WEIGHT * Math.sqrt(dr * dr + dg * dg + db * db);
      const backGrey = luma(br, bg, bb);
      const i = y * width + x;
      const greyContrast = Math.abs(plain.grey[i] - backGrey);
      // Print its grey already sets apart (white on orange) stays as it is.
      if (near[i] || contrast - greyContrast <= COLOUR_MARGIN) continue;
      hidden[i] = 1;
      target[i] = backGrey >= 128
        ? Math.max(0, backGrey - contrast)
        : Math.min(255, backGrey + contrast);
      count++;
    }
  }
  if (count < MIN_HIDDEN * width * height) return { page: plain, recoloured: 0 };
  for (let i = 0; i < hidden.length; i++) if (hidden[i]) plain.grey[i] = target[i];
  return { page: plain, recoloured: count };
}

/** Pixels within 2 px of one whose grey differs from its background's by 40 or more. */
function nearVisible(
  plain: GreyPage,
  background: Uint8Array,
  cell: number,
  columns: number,
): Uint8Array {
  const { width, height, grey } = plain;
  const visible = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const rowCell = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x++) {
      const c = (rowCell + Math.floor(x / cell)) * 3;
      const backGrey = luma(background[c], background[c + 1], background[c + 2]);
      visible[y * width + x] = Math.abs(grey[y * width + x] - backGrey) >= VISIBLE_GREY ? 1 : 0;
    }
  }
  // Dilated by 2 along rows, then along columns.
  const across = new Uint8Array(visible.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let any = 0;
      for (let dx = -2; dx <= 2 && !any; dx++) {
        const xx = x + dx;
        if (xx >= 0 && xx < width) any = visible[y * width + xx];
      }
      across[y * width + x] = any;
    }
  }
  const out = new Uint8Array(visible.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let any = 0;
      for (let dy = -2; dy <= 2 && !any; dy++) {
        const yy = y + dy;
        if (yy >= 0 && yy < height) any = across[yy * width + x];
      }
      out[y * width + x] = any;
    }
  }
  return out;
}

/** Per cell, the median of each channel (32 levels: 8 apart, enough for a background). */
function cellMedians(page: ColourPage, cell: number, columns: number, rows: number): Uint8Array {
  const { width, height, rgb } = page;
  const out = new Uint8Array(columns * rows * 3);
  const counts = new Uint32Array(3 * 32);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      counts.fill(0);
      let n = 0;
      for (let y = cy * cell; y < Math.min(height, (cy + 1) * cell); y++) {
        for (let x = cx * cell; x < Math.min(width, (cx + 1) * cell); x++) {
          const q = (y * width + x) * 3;
          counts[rgb[q] >> 3]++;
          counts[32 + (rgb[q + 1] >> 3)]++;
          counts[64 + (rgb[q + 2] >> 3)]++;
          n++;
        }
      }
      for (let channel = 0; channel < 3; channel++) {
        let seen = 0;
        let bin = 0;
        for (; bin < 32; bin++) {
          seen += counts[channel * 32 + bin];
          if (seen * 2 >= n) break;
        }
        out[(cy * columns + cx) * 3 + channel] = Math.min(255, bin * 8 + 4);
      }
    }
  }
  return out;
}

/** Each cell's channels replaced by their median over the 3×3 cells around it. */
function medianOfNeighbours(cells: Uint8Array, columns: number, rows: number): Uint8Array {
  const out = new Uint8Array(cells.length);
  const values: number[] = [];
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      for (let channel = 0; channel < 3; channel++) {
        values.length = 0;
        for (let y = Math.max(0, cy - 1); y <= Math.min(rows - 1, cy + 1); y++) {
          for (let x = Math.max(0, cx - 1); x <= Math.min(columns - 1, cx + 1); x++) {
            values.push(cells[(y * columns + x) * 3 + channel]);
          }
        }
        values.sort((a, b) => a - b);
        out[(cy * columns + cx) * 3 + channel] = values[values.length >> 1];
      }
    }
  }
  return out;
}

/** Where a card lies in a photo of it on a background ({@link findCard}). */
export interface CardRegion {
  /** Degrees to turn the photo by (`rotate(page, angle)`) to set the card upright. */
  angle: number;
  /**
   * The card's box in the turned photo, as fractions of its width and height
   * (so it holds at any scale of the same photo).
   */
  box: { left: number; top: number; right: number; bottom: number };
  /** The card's share of the photo's area. */
  share: number;
}

/** The width the card is looked for at: a card is a large thing. */
const CARD_SEARCH_WIDTH = 320;
/** A card found turned less than this (degrees) is left to deskewing ({@link findCard}). */
const MIN_CARD_TURN = 4.5;
/** How far (per channel) a pixel may be from the card's paper colour and count as paper. */
const PAPER_TOLERANCE = 40;

/** The card's paper found in a small copy of a photo ({@link paperRegion}). */
export interface PaperRegion {
  /** Its pixels, as indices into the `width × height` search picture. */
  pixels: number[];
  /** The search picture's size (the photo shrunk by `step`). */
  width: number;
  height: number;
  /** Photo pixels per search pixel. */
  step: number;
  /** The region's share of the photo's area. */
  share: number;
}

/**
 * The card's paper in a photo of a card on a background: the largest
 * 4-connected region of pixels within 40 per channel of the photo centre's
 * colour, searched at 320 px wide and eroded once, when it touches no edge of
 * the photo and covers 8–75% of it; else `null`. What {@link findCard} (a
 * turned card) and the perspective correction (a card photographed at an
 * angle) start from.
 */
export function paperRegion(
  photo: ColourPage,
  options: {
    /**
     * Close one-pixel gaps in the paper first (dilate, then erode): print lines blurred by
     * heavy JPEG cut a card's paper into strips at the search's size. @default false
     */
    bridge?: boolean;
  } = {},
): PaperRegion | null {
  const step = Math.max(1, Math.ceil(photo.width / CARD_SEARCH_WIDTH));
  const width = Math.floor(photo.width / step);
  const height = Math.floor(photo.height / step);
  if (width < 16 || height < 16) return null;
  // Block averages: the small picture the search runs on.
  const small = new Float32Array(width * height * 3);
  for (let y = 0; y < height * step; y++) {
    for (let x = 0; x < width * step; x++) {
      const q = (y * photo.width + x) * 3;
      const s = (Math.floor(y / step) * width + Math.floor(x / step)) * 3;
      small[s] += photo.rgb[q];
      small[s + 1] += photo.rgb[q + 1];
      small[s + 2] += photo.rgb[q + 2];
    }
  }
  for (let i = 0; i < small.length; i++) small[i] /= step * step;
  const paper = [0, 1, 2].map((channel) => {
    const values: number[] = [];
    for (let y = Math.floor(height * 0.4); y < Math.ceil(height * 0.6); y++) {
      for (let x = Math.floor(width * 0.4); x < Math.ceil(width * 0.6); x++) {
        values.push(small[(y * width + x) * 3 + channel]);
      }
    }
    values.sort((a, b) => a - b);
    return values[values.length >> 1];
  });
  const isPaper = new Uint8Array(width * height);
  for (let i = 0; i < isPaper.length; i++) {
    isPaper[i] = Math.abs(small[i * 3] - paper[0]) <= PAPER_TOLERANCE &&
        Math.abs(small[i * 3 + 1] - paper[1]) <= PAPER_TOLERANCE &&
        Math.abs(small[i * 3 + 2] - paper[2]) <= PAPER_TOLERANCE
      ? 1
      : 0;
  }
  // Eroded once: a cloth's white square touching the card's edge through a pixel or two
  // (where a thin border averaged away) is not part of the card.
  const mask = options.bridge ? erode(dilate(isPaper, width, height), width, height) : isPaper;
  const core = erode(mask, width, height);
  const region = largestRegion(core, width, height);
  if (!region || region.touchesEdge) return null;
  const share = region.pixels.length / (width * height);
  if (share < 0.08 || share > 0.75) return null;
  return { pixels: region.pixels, width, height, step, share };
}

/**
 * The card in a photo of it lying on something else, or `null` when the
 * photo is the card (or the card cannot be told from its background). The
 * card's paper is the largest 4-connected region of pixels within 40 per
 * channel of the photo centre's colour (its per-channel median over the
 * middle fifth), searched at 320 px wide. It is a card only when that region
 * touches no edge of the photo (a page photographed edge to edge, a card on
 * white, or one half of a two-tone card does), covers 8–75% of it, and fills
 * at least half of its own box once turned upright (a band of one colour
 * across a card does not, nor a checked cloth's squares), and that box is a
 * card's shape: at most four times as long as it is wide (a hologram's
 * stripe is longer). Its angle is the
 * region's principal axis (folded within ±45°: a portrait card stays
 * portrait), which deskewing alone (±8°) cannot reach.
 */
export function findCard(photo: ColourPage): CardRegion | null {
  // Bridged only when the plain search finds no card: under heavy JPEG a card's print lines
  // cut its paper into strips, the largest of which is a band, not a card.
  return cardIn(paperRegion(photo)) ?? cardIn(paperRegion(photo, { bridge: true }));
}

/** The card {@link findCard} answers for a paper region, or `null`. */
function cardIn(found: PaperRegion | null): CardRegion | null {
  if (!found) return null;
  const { width, height, share } = found;
  const region = found;
  // The card's edge: the turn at which the region's outline has the smallest upright box
  // (a rectangle's own angle, whatever its proportions), searched by 1° and then 0.2°.
  const member = new Uint8Array(width * height);
  for (const i of region.pixels) member[i] = 1;
  const outline: number[] = [];
  for (const i of region.pixels) {
    if (!member[i - 1] || !member[i + 1] || !member[i - width] || !member[i + width]) {
      outline.push(i);
    }
  }
  const boxArea = (radians: number) => {
    const cos = Math.cos(radians), sin = Math.sin(radians);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const i of outline) {
      const x = i % width, y = (i - x) / width;
      const u = x * cos - y * sin, v = x * sin + y * cos;
      if (u < x0) x0 = u;
      if (u > x1) x1 = u;
      if (v < y0) y0 = v;
      if (v > y1) y1 = v;
    }
    return (x1 - x0) * (y1 - y0);
  };
  let best = 0, bestArea = Infinity;
  for (let degrees = -44; degrees <= 45; degrees++) {
    const area = boxArea((degrees * Math.PI) / 180);
    if (area < bestArea) [best, bestArea] = [degrees, area];
  }
  const coarse = best;
  for (let degrees = coarse - 0.8; degrees <= coarse + 0.8; degrees += 0.2) {
    const area = boxArea((degrees * Math.PI) / 180);
    if (area < bestArea) [best, bestArea] = [degrees, area];
  }
  const axis = (-best * Math.PI) / 180;
  const angle = (-axis * 180) / Math.PI;
  // The region's box in the turned picture (rotate()'s geometry: a canvas holding it all).
  const cos = Math.cos(-axis);
  const sin = Math.sin(-axis);
  const turnedWidth = Math.abs(width * cos) + Math.abs(height * sin);
  const turnedHeight = Math.abs(width * sin) + Math.abs(height * cos);
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  for (const i of region.pixels) {
    const dx = i % width + 0.5 - width / 2;
    const dy = Math.floor(i / width) + 0.5 - height / 2;
    const x = dx * cos - dy * sin + turnedWidth / 2;
    const y = dx * sin + dy * cos + turnedHeight / 2;
    if (x < left) left = x;
    if (x > right) right = x;
    if (y < top) top = y;
    if (y > bottom) bottom = y;
  }
  // Its print is not paper at the search's size: a card dense with print (or with print blurred
  // by JPEG) has a paper region full of holes, which its outline still bounds.
  const fill = filledArea(region.pixels, width) /
    Math.max(1, (right - left + 1) * (bottom - top + 1));
  // A card is a card's shape: a band or stripe of the centre's colour is long and thin.
  const long = Math.max(right - left, bottom - top) + 1;
  const short = Math.min(right - left, bottom - top) + 1;
  if (long / short > 4 || short < 0.2 * Math.min(width, height)) return null;
  if (fill < 0.5 || Math.abs(angle) < MIN_CARD_TURN) return null;
  // A margin of three search pixels: what the erosion took, the card's edge and its border.
  const margin = 3;
  return {
    angle: Math.round(angle * 10) / 10,
    box: {
      left: Math.max(0, (left - margin) / turnedWidth),
      top: Math.max(0, (top - margin) / turnedHeight),
      right: Math.min(1, (right + 1 + margin) / turnedWidth),
      bottom: Math.min(1, (bottom + 1 + margin) / turnedHeight),
    },
    share,
  };
}

/** Each pixel set when it and its four neighbours are (the picture's edge is never set). */
function erode(mask: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      out[i] = mask[i] & mask[i - 1] & mask[i + 1] & mask[i - width] & mask[i + width];
    }
  }
  return out;
}

/** Each pixel set when it or one of its four neighbours is. */
function dilate(mask: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] = mask[i] | (x > 0 ? mask[i - 1] : 0) | (x < width - 1 ? mask[i + 1] : 0) |
        (y > 0 ? mask[i - width] : 0) | (y < height - 1 ? mask[i + width] : 0);
    }
  }
  return out;
}

/**
 * The area of a region with its holes filled: the sum over its rows of the span from its
 * leftmost to its rightmost pixel (exact for a convex region such as a card's outline).
 */
export function filledArea(pixels: readonly number[], width: number): number {
  const spans = new Map<number, [number, number]>();
  for (const i of pixels) {
    const x = i % width, y = (i - x) / width;
    const span = spans.get(y);
    if (!span) spans.set(y, [x, x]);
    else (span[0] = Math.min(span[0], x), span[1] = Math.max(span[1], x));
  }
  let filled = 0;
  for (const [x0, x1] of spans.values()) filled += x1 - x0 + 1;
  return filled;
}

/** The largest 4-connected region of set pixels, and whether it touches the picture's edge. */
function largestRegion(
  mask: Uint8Array,
  width: number,
  height: number,
): { pixels: number[]; touchesEdge: boolean } | null {
  const seen = new Uint8Array(mask.length);
  let best: { pixels: number[]; touchesEdge: boolean } | null = null;
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const pixels: number[] = [];
    let touchesEdge = false;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      pixels.push(i);
      const x = i % width;
      const y = (i - x) / width;
      // (The mask was eroded: its outermost pixels are never set.)
      if (x <= 1 || y <= 1 || x >= width - 2 || y >= height - 2) touchesEdge = true;
      if (x > 0 && mask[i - 1] && !seen[i - 1]) (seen[i - 1] = 1, stack.push(i - 1));
      if (x < width - 1 && mask[i + 1] && !seen[i + 1]) (seen[i + 1] = 1, stack.push(i + 1));
      if (y > 0 && mask[i - width] && !seen[i - width]) {
        seen[i - width] = 1;
        stack.push(i - width);
      }
      if (y < height - 1 && mask[i + width] && !seen[i + width]) {
        seen[i + width] = 1;
        stack.push(i + width);
      }
    }
    if (!best || pixels.length > best.pixels.length) best = { pixels, touchesEdge };
  }
  return best;
}

/** The part of `page` inside `box` (fractions of its width and height). */
export function cropTo(page: GreyPage, box: CardRegion["box"]): GreyPage {
  const x0 = Math.max(0, Math.floor(box.left * page.width));
  const y0 = Math.max(0, Math.floor(box.top * page.height));
  const x1 = Math.min(page.width, Math.ceil(box.right * page.width));
  const y1 = Math.min(page.height, Math.ceil(box.bottom * page.height));
  const width = Math.max(1, x1 - x0);
  const height = Math.max(1, y1 - y0);
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    grey.set(
      page.grey.subarray((y0 + y) * page.width + x0, (y0 + y) * page.width + x0 + width),
      y * width,
    );
  }
  return { width, height, grey };
}

/** What {@link flattenIllumination} did. */
export interface Illumination {
  /** Whether the page was flattened. */
  flattened: boolean;
  /** The fitted paper's brightest over its darkest (1: evenly lit). */
  ratio: number;
  /** The share of cells whose paper the fitted surface agrees with. */
  inliers: number;
  /** Neighbouring cells whose paper steps (one under 0.75 of the other): a band's edges. */
  steps: number;
}

/** Cells of this many pixels (at the working width) sample the paper's brightness. */
const LIGHT_CELL = 32;
/** A fitted paper at most this much brighter in one place than another is left as it is. */
const MIN_RATIO = 1.3;
/** The share of cells that must agree with the fitted paper (bands of colour do not). */
const MIN_INLIERS = 0.8;
/** Neighbouring cells one of which is under this share of the other: a step, not a shadow. */
const STEP = 0.75;
/** Steps allowed, per cell of the page's longer side (a band's edge is a line of them). */
const MAX_STEPS = 0.3;

/**
 * Divides a shadow or a fading light out of the page, in place. The paper's
 * brightness is sampled per 32 px cell (its 90th percentile: the paper
 * between the print) and fitted by least squares with a quadratic surface in
 * x and y; cells far below the fit (a dark band, a photo, a cell all print)
 * or far above it (glare) are dropped and the fit repeated, three times. When
 * the fitted paper is at least 1.3 times brighter in one place than in
 * another and at least 80% of the cells agree with it, and the paper changes
 * smoothly (fewer steps between neighbouring cells, one under 0.75 of the
 * other, than 0.3 a cell of the page's longer side: a band's edge is a line
 * of them), each pixel is scaled
 * by the brightest paper over the paper's brightness where it is. A dark
 * band, which no smooth surface fits, is left dark (and inverted later).
 */
export function flattenIllumination(page: GreyPage): Illumination {
  const { width, height, grey } = page;
  const columns = Math.floor(width / LIGHT_CELL);
  const rows = Math.floor(height / LIGHT_CELL);
  if (columns < 4 || rows < 3) return { flattened: false, ratio: 1, inliers: 0, steps: 0 };
  const xs: number[] = [];
  const ys: number[] = [];
  const vs: number[] = [];
  const counts = new Uint32Array(256);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      counts.fill(0);
      for (let y = cy * LIGHT_CELL; y < (cy + 1) * LIGHT_CELL; y++) {
        for (let x = cx * LIGHT_CELL; x < (cx + 1) * LIGHT_CELL; x++) counts[grey[y * width + x]]++;
      }
      let seen = 0;
      let value = 255;
      for (; value > 0; value--) {
        seen += counts[value];
        if (seen >= LIGHT_CELL * LIGHT_CELL * 0.1) break;
      }
      xs.push((cx + 0.5) / columns - 0.5);
      ys.push((cy + 0.5) / rows - 0.5);
      vs.push(value);
    }
  }
  let keep = vs.map(() => true);
  let fit: number[] | null = null;
  for (let round = 0; round < 3; round++) {
    fit = quadraticFit(xs, ys, vs, keep);
    if (!fit) return { flattened: false, ratio: 1, inliers: 0, steps: 0 };
    const f = fit;
    keep = vs.map((v, i) => {
      const predicted = surface(f, xs[i], ys[i]);
      return v >= predicted * 0.85 && v <= predicted * 1.15;
    });
  }
  const inliers = keep.filter(Boolean).length / keep.length;
  // Light changes smoothly; a band's edge is a step between neighbouring cells.
  let steps = 0;
  for (let i = 0; i < vs.length; i++) {
    const right = i % columns < columns - 1 ? vs[i + 1] : null;
    const below = i + columns < vs.length ? vs[i + columns] : null;
    for (const other of [right, below]) {
      if (other !== null && Math.min(vs[i], other) < STEP * Math.max(vs[i], other)) steps++;
    }
  }
  let low = Infinity, high = 0;
  for (let i = 0; i < xs.length; i++) {
    const value = surface(fit!, xs[i], ys[i]);
    if (value < low) low = value;
    if (value > high) high = value;
  }
  const ratio = low > 0 ? high / low : Infinity;
  if (
    inliers < MIN_INLIERS || !(ratio >= MIN_RATIO) || low < 20 ||
    steps > MAX_STEPS * Math.max(columns, rows)
  ) {
    return { flattened: false, ratio, inliers, steps };
  }
  const scale = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    const fy = (y + 0.5) / (rows * LIGHT_CELL) - 0.5;
    for (let x = 0; x < width; x++) {
      scale[x] = high / Math.max(20, surface(fit!, (x + 0.5) / (columns * LIGHT_CELL) - 0.5, fy));
    }
    const row = y * width;
    for (let x = 0; x < width; x++) grey[row + x] = Math.min(255, grey[row + x] * scale[x]);
  }
  return { flattened: true, ratio, inliers, steps };
}

/** a + b·x + c·y + d·x² + e·x·y + f·y² */
function surface(p: number[], x: number, y: number): number {
  return p[0] + p[1] * x + p[2] * y + p[3] * x * x + p[4] * x * y + p[5] * y * y;
}

/** Least squares of the quadratic surface through the kept points (normal equations). */
function quadraticFit(xs: number[], ys: number[], vs: number[], keep: boolean[]): number[] | null {
  const a = Array.from({ length: 6 }, () => new Array(6).fill(0));
  const b = new Array(6).fill(0);
  let n = 0;
  for (let i = 0; i < xs.length; i++) {
    if (!keep[i]) continue;
    const x = xs[i], y = ys[i];
    const terms = [1, x, y, x * x, x * y, y * y];
    for (let r = 0; r < 6; r++) {
      b[r] += terms[r] * vs[i];
      for (let c = 0; c < 6; c++) a[r][c] += terms[r] * terms[c];
    }
    n++;
  }
  if (n < 12) return null;
  for (let col = 0; col < 6; col++) {
    let pivot = col;
    for (let row = col + 1; row < 6; row++) {
      if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    }
    if (Math.abs(a[pivot][col]) < 1e-9) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    [b[col], b[pivot]] = [b[pivot], b[col]];
    for (let row = 0; row < 6; row++) {
      if (row === col) continue;
      const factor = a[row][col] / a[col][col];
      for (let k = col; k < 6; k++) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  return b.map((value, i) => value / a[i][i]);
}
