/**
 * A photo as one grey channel in a flat array, and the few operations the
 * OCR engines run on it before reading: scale to a working size, stretch
 * contrast, measure and repair blur, measure and undo skew, and hand the
 * result over as an uncompressed PGM.
 *
 * Why not jimp's own operations: jimp keeps four channels in nested loops, so
 * each pass costs 3–4 times the work, and it only ever scaled small pictures
 * up: a 12-megapixel phone photo was read at full size (18–32 s of CPU a
 * page). Here a page is decoded once, brought to the size its print needs
 * (large photos come down, small ones go up), and every pass is one loop over
 * one byte a pixel. PNG encoding (0.1–0.2 s a page) is replaced by a PGM
 * header, which tesseract's Leptonica reads as it is.
 *
 * @module
 */
import { Jimp } from "jimp";
import { ToolFailure } from "@shared/contract/result.ts";

/** A grey picture: `width × height` bytes, row by row, 0 black … 255 white. */
export interface GreyPage {
  /** Pixels a row. */
  width: number;
  /** Rows. */
  height: number;
  /** One byte a pixel. */
  grey: Uint8Array;
}

/**
 * Decodes a JPEG, PNG or WebP photo to one grey channel (the mean of its
 * colour channels, as jimp's `greyscale()` weighs them).
 *
 * @throws {ToolFailure} VALIDATION_ERROR when the bytes are not an image jimp can decode.
 */
export async function decodeGrey(bytes: Uint8Array): Promise<GreyPage> {
  let image;
  try {
    image = await Jimp.read(Buffer.from(bytes));
  } catch {
    throw new ToolFailure("VALIDATION_ERROR", "The file is not an image we can read (JPEG or PNG)");
  }
  const { width, height, data } = image.bitmap;
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    // jimp's greyscale: ITU-R BT.709 luma, truncated (the preprocessing was tuned on it).
    grey[i] = 0.2126 * data[p] + 0.7152 * data[p + 1] + 0.0722 * data[p + 2];
  }
  return { width, height, grey };
}

/**
 * The page scaled to `width` (height in proportion): an area average when it
 * shrinks (every source pixel counts once, so thin strokes survive), linear
 * interpolation when it grows, sampled where jimp's resizer samples.
 *
 * @throws {RangeError} when `width` is not a positive integer.
 */
export function scaleTo(page: GreyPage, width: number): GreyPage {
  if (!Number.isInteger(width) || width < 1) {
    throw new RangeError(
      `Cannot scale a page as width must be a positive integer: current value is ${width}`,
    );
  }
  if (width === page.width) return { ...page, grey: page.grey.slice() };
  const height = Math.max(1, Math.round(page.height * width / page.width));
  return width < page.width ? shrink(page, width, height) : grow(page, width, height);
}

function shrink(page: GreyPage, width: number, height: number): GreyPage {
  const { width: sw, height: sh, grey: source } = page;
  const fx = sw / width;
  const fy = sh / height;
  // Per target column: the source columns it covers and how much of the first and last.
  const sums = new Float64Array(width);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    const top = y * fy;
    const bottom = top + fy;
    for (let sy = Math.floor(top); sy < Math.min(sh, Math.ceil(bottom)); sy++) {
      const wy = Math.min(bottom, sy + 1) - Math.max(top, sy);
      const row = sy * sw;
      for (let x = 0; x < width; x++) {
        const left = x * fx;
        const right = left + fx;
        let sum = 0;
        for (let sx = Math.floor(left); sx < Math.min(sw, Math.ceil(right)); sx++) {
          sum += source[row + sx] * (Math.min(right, sx + 1) - Math.max(left, sx));
        }
        sums[x] += sum * wy;
      }
    }
    const area = fx * fy;
    for (let x = 0; x < width; x++) out[y * width + x] = Math.round(sums[x] / area);
  }
  return { width, height, grey: out };
}

function grow(page: GreyPage, width: number, height: number): GreyPage {
  const { width: sw, height: sh, grey: source } = page;
  const out = new Uint8Array(width * height);
  const fx = sw / width;
  const fy = sh / height;
  const x0s = new Int32Array(width);
  const wxs = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    // Where jimp's resizer samples (its first pass starts a third of a pixel in).
    const sx = Math.max(0, Math.min(sw - 1, x * fx - 1 / 3));
    x0s[x] = Math.min(sw - 2, Math.floor(sx));
    wxs[x] = sx - x0s[x];
  }
  for (let y = 0; y < height; y++) {
    const sy = Math.max(0, Math.min(sh - 1, y * fy - 1 / 3));
    const y0 = Math.max(0, Math.min(sh - 2, Math.floor(sy)));
    const wy = sy - y0;
    const r0 = y0 * sw;
    const r1 = Math.min(sh - 1, y0 + 1) * sw;
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x0s[x]);
      const x1 = Math.min(sw - 1, x0 + 1);
      const wx = wxs[x];
      const top = source[r0 + x0] * (1 - wx) + source[r0 + x1] * wx;
      const bottom = source[r1 + x0] * (1 - wx) + source[r1 + x1] * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return { width, height, grey: out };
}

/**
 * Stretches the page's darkest pixel to 0 and its lightest to 255, in place
 * (jimp's `normalize`, truncating as it does).
 */
export function stretchContrast(page: GreyPage): void {
  const { grey } = page;
  let low = 255;
  let high = 0;
  for (let i = 0; i < grey.length; i++) {
    const value = grey[i];
    if (value < low) low = value;
    if (value > high) high = value;
  }
  if (high <= low) return;
  const lookup = new Uint8Array(256);
  for (let value = 0; value < 256; value++) {
    lookup[value] = (value - low) * 255 / (high - low);
  }
  for (let i = 0; i < grey.length; i++) grey[i] = lookup[grey[i]];
}

/**
 * How sharp the page's edges are: the 90th percentile of the gradient
 * magnitude (of pixels on an edge at all) at 900 px wide after contrast
 * stretching, 0–510. Text in focus has steep edges; blur flattens them.
 */
export function sharpness(page: GreyPage): number {
  const small = scaleTo(page, 900);
  stretchContrast(small);
  const { width, height, grey } = small;
  const counts = new Uint32Array(511);
  let edges = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const at = y * width + x;
      const magnitude = Math.abs(grey[at + 1] - grey[at - 1]) +
        Math.abs(grey[at + width] - grey[at - width]);
      if (magnitude > 20) {
        counts[magnitude]++;
        edges++;
      }
    }
  }
  if (edges === 0) return 0;
  const rank = Math.floor(edges * 0.9);
  let seen = 0;
  for (let magnitude = 0; magnitude < counts.length; magnitude++) {
    seen += counts[magnitude];
    if (seen > rank) return magnitude;
  }
  return 510;
}

/**
 * Unsharp mask, in place: the page plus 1.5 × its difference from a blurred
 * copy ({@link inPlaceGaussian} of radius 2, which the accuracy was tuned on).
 */
export function unsharpMask(page: GreyPage): void {
  const { width, height, grey } = page;
  const soft = inPlaceGaussian(grey, width, height, 2);
  for (let i = 0; i < grey.length; i++) {
    const value = grey[i];
    grey[i] = Math.max(0, Math.min(255, Math.round(value + 1.5 * (value - soft[i]))));
  }
}

/**
 * jimp's `gaussian(radius)` on one channel, value for value: each pixel, in
 * reading order, becomes the Gaussian-weighted mean of the square around it
 * (edges clamped), written back row by row of the square as it sums, so the
 * pixels above and to the left are already blurred when it reads them. That
 * in-place blur is stronger than a true Gaussian of the same radius; the
 * sharpening and the OCR accuracy were tuned on it (a true σ = 2 Gaussian read
 * 91.0 % held out instead of 93.1 %). jimp's own loop does the same sums on
 * four channels through nested arrays: 9 s on a 1800 × 1200 page.
 */
export function inPlaceGaussian(
  channel: Uint8Array,
  width: number,
  height: number,
  radius: number,
): Uint8Array {
  const reach = Math.ceil(radius * 2.57);
  const range = reach * 2 + 1;
  const spread = radius * radius * 2;
  const weights = new Float64Array(range * range);
  for (let iy = 0; iy < range; iy++) {
    for (let ix = 0; ix < range; ix++) {
      weights[iy * range + ix] = Math.exp(-((ix - reach) ** 2 + (iy - reach) ** 2) / spread) /
        (spread * Math.PI);
    }
  }
  // The clamped column of each pixel's window, and the clamped row's offset.
  const columns = new Int32Array(width * range);
  for (let x = 0; x < width; x++) {
    for (let ix = 0; ix < range; ix++) {
      columns[x * range + ix] = Math.min(width - 1, Math.max(0, ix + x - reach));
    }
  }
  const rows = new Int32Array(height * range);
  for (let y = 0; y < height; y++) {
    for (let iy = 0; iy < range; iy++) {
      rows[y * range + iy] = Math.min(height - 1, Math.max(0, iy + y - reach)) * width;
    }
  }
  // The weights summed up to the end of each row of the square.
  const totals = new Float64Array(range);
  let total = 0;
  for (let i = 0; i < range * range; i++) {
    total += weights[i];
    if (i % range === range - 1) totals[(i - range + 1) / range] = total;
  }
  const out = channel.slice();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * width + x;
      let sum = 0;
      for (let iy = 0; iy < range; iy++) {
        const row = rows[y * range + iy];
        const first = iy * range;
        const window = x * range;
        for (let ix = 0; ix < range; ix++) {
          sum += out[row + columns[window + ix]] * weights[first + ix];
        }
        // The partial mean is what the pixel itself reads in the rows still to come.
        out[at] = Math.round(sum / totals[iy]);
      }
    }
  }
  return out;
}

/**
 * The page's skew in degrees (counter-clockwise positive): the angle at
 * which the dark pixels' rows, projected, are most uneven (text lines
 * concentrate ink in few rows). Searched on a 500 px wide copy from -8° to
 * 8°, coarse then fine.
 */
export function estimateSkew(page: GreyPage): number {
  const { width, height, grey } = scaleTo(page, 500);
  let sum = 0;
  for (let i = 0; i < grey.length; i++) sum += grey[i];
  const mean = sum / (width * height);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (grey[y * width + x] < mean * 0.6) {
        xs.push(x - width / 2);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50) return 0;
  const bins = new Float64Array(height * 2 + 2);
  const spread = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) {
      const row = Math.round(ys[i] * cos + xs[i] * sin) + height;
      if (row >= 0 && row < bins.length) bins[row]++;
    }
    let squares = 0;
    for (const count of bins) squares += count * count;
    return squares;
  };
  let best = 0;
  let bestScore = -1;
  for (let degrees = -8; degrees <= 8; degrees += 1) {
    const score = spread(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  }
  const coarse = best;
  for (let degrees = coarse - 0.9; degrees <= coarse + 0.9; degrees += 0.3) {
    const score = spread(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  }
  return Math.round(best * 10) / 10;
}

/**
 * The page turned clockwise by `degrees` about its centre (undoing a skew of
 * `degrees` counter-clockwise), on a canvas large enough to hold it, with
 * white paper brought in at the corners; bilinear sampling.
 */
export function rotate(page: GreyPage, degrees: number): GreyPage {
  const { width: sw, height: sh, grey: source } = page;
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const width = Math.ceil(Math.abs(sw * cos) + Math.abs(sh * sin));
  const height = Math.ceil(Math.abs(sw * sin) + Math.abs(sh * cos));
  const out = new Uint8Array(width * height).fill(255);
  const cx = width / 2;
  const cy = height / 2;
  const scx = sw / 2;
  const scy = sh / 2;
  for (let y = 0; y < height; y++) {
    const dy = y + 0.5 - cy;
    for (let x = 0; x < width; x++) {
      const dx = x + 0.5 - cx;
      // The source point that lands here (the inverse turn: counter-clockwise, y down).
      const sx = dx * cos + dy * sin + scx - 0.5;
      const sy = -dx * sin + dy * cos + scy - 0.5;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) continue;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(sw - 1, x0 + 1);
      const y1 = Math.min(sh - 1, y0 + 1);
      const wx = sx - x0;
      const wy = sy - y0;
      const top = source[y0 * sw + x0] * (1 - wx) + source[y0 * sw + x1] * wx;
      const bottom = source[y1 * sw + x0] * (1 - wx) + source[y1 * sw + x1] * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return { width, height, grey: out };
}

/** The page as a binary PGM (`P5`): a header and the bytes as they are, no compression. */
export function toPgm(page: GreyPage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${page.width} ${page.height}\n255\n`);
  const out = new Uint8Array(header.length + page.grey.length);
  out.set(header);
  out.set(page.grey, header.length);
  return out;
}

/** What {@link removeRules} found and erased. */
export interface RulesRemoved {
  /** Horizontal rules (one entry per row of a rule's thickness). */
  horizontal: number;
  /** Vertical rules (one entry per column of a rule's thickness). */
  vertical: number;
}

/** Options for {@link removeRules}. */
export interface RemoveRulesOptions {
  /** Shortest horizontal run taken for a rule, in pixels. @default width / 15 */
  minHorizontal?: number;
  /** Shortest vertical run taken for a rule, in pixels. @default max(50, width / 30) */
  minVertical?: number;
}

/**
 * The grey level that best splits the page into ink and paper (Otsu's
 * threshold: the split with the largest variance between the two classes).
 */
export function inkThreshold(page: GreyPage): number {
  const counts = new Float64Array(256);
  for (let i = 0; i < page.grey.length; i++) counts[page.grey[i]]++;
  const total = page.grey.length;
  let sumAll = 0;
  for (let value = 0; value < 256; value++) sumAll += value * counts[value];
  let below = 0;
  let sumBelow = 0;
  let best = 127;
  let bestVariance = -1;
  for (let value = 0; value < 256; value++) {
    below += counts[value];
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    sumBelow += value * counts[value];
    const meanBelow = sumBelow / below;
    const meanAbove = (sumAll - sumBelow) / above;
    const variance = below * above * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) [best, bestVariance] = [value, variance];
  }
  return best;
}

/**
 * Erases table rules and borders, in place: long, thin runs of ink along a
 * row or a column. Tesseract takes a ruled table for picture or separator
 * regions and drops whole rows of the text between the rules (the bordered
 * families read 45–60 % of fields); without the rules the cells read as
 * plain text. A run is a rule when it is at least `minHorizontal`
 * (`minVertical`) pixels long with gaps of at most 2 pixels (JPEG noise and
 * grain break a 1 px line) and thin: the band of rows (columns) that are
 * mostly ink along it is at most 8 pixels thick and the rows (columns) just
 * outside that band are mostly paper. Text fails that: a row through a word
 * has strokes, not paper, on either side. The rule's pixels, and the lighter
 * halo blur left around them, become paper (255).
 */
export function removeRules(page: GreyPage, options: RemoveRulesOptions = {}): RulesRemoved {
  const { width, height, grey } = page;
  const threshold = inkThreshold(page);
  // Ink for rules is anything darker than midway from the threshold to white: a thin rule
  // a little off the horizontal is spread grey over two rows where it steps.
  const halo = threshold + (255 - threshold) / 2;
  const ink = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) ink[i] = grey[i] < halo ? 1 : 0;
  const minHorizontal = options.minHorizontal ?? Math.round(width / 15);
  const minVertical = options.minVertical ?? Math.max(50, Math.round(width / 30));
  const erase = new Uint8Array(grey.length);
  const found = {
    horizontal: findRules(ink, height, width, 1, width, minHorizontal, erase),
    vertical: findRules(ink, width, height, width, 1, minVertical, erase),
  };
  for (let i = 0; i < grey.length; i++) if (erase[i] && grey[i] < halo) grey[i] = 255;
  return found;
}

const MAX_GAP = 2;
const MAX_THICKNESS = 8;

/**
 * Runs of ink along lines of the page (rows when `along` is 1 and `across` the width; columns
 * when `along` is the width and `across` 1), marked in `erase` with the halo around them.
 * Answers how many lines held a rule.
 */
function findRules(
  ink: Uint8Array,
  lines: number,
  length: number,
  along: number,
  across: number,
  minLength: number,
  erase: Uint8Array,
): number {
  // How much of positions start..end of line `line` is ink.
  const inkShare = (line: number, start: number, end: number) => {
    if (line < 0 || line >= lines) return 0;
    let sum = 0;
    for (let p = start; p <= end; p++) sum += ink[line * across + p * along];
    return sum / (end - start + 1);
  };
  let rules = 0;
  for (let line = 0; line < lines; line++) {
    let start = -1;
    let last = -1;
    let lineHeld = false;
    for (let p = 0; p <= length; p++) {
      const isInk = p < length && ink[line * across + p * along] === 1;
      if (isInk) {
        if (start < 0) start = p;
        last = p;
        continue;
      }
      if (start < 0 || (p < length && p - last <= MAX_GAP)) continue;
      if (last - start + 1 >= minLength && inkShare(line, start, last) >= 0.9) {
        // The band of lines that are mostly ink along this run: the rule's thickness.
        let top = line;
        while (top > 0 && line - top < MAX_THICKNESS && inkShare(top - 1, start, last) > 0.6) top--;
        let bottom = line;
        while (
          bottom < lines - 1 && bottom - top < MAX_THICKNESS &&
          inkShare(bottom + 1, start, last) > 0.6
        ) {
          bottom++;
        }
        const thin = bottom - top + 1 <= MAX_THICKNESS &&
          inkShare(top - 2, start, last) < 0.3 && inkShare(bottom + 2, start, last) < 0.3;
        if (thin) {
          lineHeld = true;
          for (let l = Math.max(0, top - 2); l <= Math.min(lines - 1, bottom + 2); l++) {
            for (let q = start; q <= last; q++) erase[l * across + q * along] = 1;
          }
        }
      }
      start = -1;
      last = -1;
    }
    if (lineHeld) rules++;
  }
  return rules;
}

/**
 * How dark a cell's neighbourhood must be, on average, to be a band of colour: a band holding
 * light print is 85–95% dark, a line of bold print at most about half ink.
 */
const CORE_DARK = 0.65;

/** The share of a dark region's pixels that are light when it holds print (letters), not a blank. */
const MIN_PRINT = 0.02;
const MAX_PRINT = 0.5;

/** What {@link invertDarkRegions} found and inverted. */
export interface DarkRegions {
  /** Dark regions holding light text, inverted. */
  regions: number;
  /** Pixels inverted. */
  pixels: number;
}

/** Options for {@link invertDarkRegions}. */
export interface InvertDarkOptions {
  /** The side of the square cells the page is judged in, in pixels. @default 8 */
  cell?: number;
  /**
   * The side of the neighbourhood a cell's darkness is judged over, in pixels: larger than a
   * line of bold print (which is never mostly ink over it), smaller than a band of a card.
   * @default width / 20
   */
  window?: number;
}

/**
 * Turns light-on-dark print into dark-on-light, in place: a card's dark header
 * strip, dark column, dark half or dark table rows. Tesseract reads dark
 * text on light paper; white text on a coloured band came out as noise or
 * nothing (a family with its labels in a dark column read 38% of fields).
 *
 * The page is judged in small cells: a cell is dark when most of its pixels are
 * darker than the page's ink threshold ({@link inkThreshold}). A region is the
 * cells whose neighbourhood (`window`) is mostly dark ({@link CORE_DARK}): print is never mostly
 * ink over a neighbourhood a few lines tall, a band of colour is. The region
 * grows into the dark cells touching it (to the band's edge), and is inverted
 * whole when it holds light print: 2–50% of its pixels lighter than the
 * threshold. A dark desk around a photographed card, a photo or a shadow hold
 * none and stay as they are; joined to a band, only the band's cells with
 * print around them are inverted. What the cells leave at a band's edge is a
 * line at most one cell thick, which {@link removeRules} erases.
 */
export function invertDarkRegions(page: GreyPage, options: InvertDarkOptions = {}): DarkRegions {
  const { width, height, grey } = page;
  const cell = options.cell ?? 8;
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const threshold = inkThreshold(page);
  // The share of each cell's pixels that are dark.
  const dark = new Float32Array(columns * rows);
  const sizes = new Float32Array(columns * rows);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x++) {
      const at = row + Math.floor(x / cell);
      sizes[at]++;
      if (grey[y * width + x] <= threshold) dark[at]++;
    }
  }
  for (let i = 0; i < dark.length; i++) dark[i] /= sizes[i] || 1;
  // Summed-area table of the cells' darkness, for each cell's neighbourhood.
  const sums = new Float64Array((columns + 1) * (rows + 1));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      sums[(r + 1) * (columns + 1) + c + 1] = dark[r * columns + c] +
        sums[r * (columns + 1) + c + 1] +
        sums[(r + 1) * (columns + 1) + c] - sums[r * (columns + 1) + c];
    }
  }
  const reach = Math.max(2, Math.round((options.window ?? width / 20) / cell / 2));
  const core = new Uint8Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const top = Math.max(0, r - reach);
    const bottom = Math.min(rows, r + reach + 1);
    for (let c = 0; c < columns; c++) {
      const left = Math.max(0, c - reach);
      const right = Math.min(columns, c + reach + 1);
      const sum = sums[bottom * (columns + 1) + right] - sums[top * (columns + 1) + right] -
        sums[bottom * (columns + 1) + left] + sums[top * (columns + 1) + left];
      if (sum / ((bottom - top) * (right - left)) > CORE_DARK) core[r * columns + c] = 1;
    }
  }
  // Light pixels a cell holds, for the print test below.
  const light = new Float32Array(columns * rows);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x++) {
      if (grey[y * width + x] > threshold) light[row + Math.floor(x / cell)]++;
    }
  }
  // Regions: connected core cells, grown into the dark cells they touch.
  const region = new Int32Array(columns * rows).fill(-1);
  const inRegion = new Uint8Array(columns * rows);
  let regions = 0;
  for (let start = 0; start < core.length; start++) {
    if (!core[start] || region[start] >= 0) continue;
    const cells: number[] = [start];
    region[start] = regions;
    for (let next = 0; next < cells.length; next++) {
      const at = cells[next];
      const r = Math.floor(at / columns);
      const c = at % columns;
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const nr = r + dr;
        const nc = c + dc;
        if (nr < 0 || nr >= rows || nc < 0 || nc >= columns) continue;
        const near = nr * columns + nc;
        if (region[near] >= 0 || !(core[near] || dark[near] > 0.5)) continue;
        region[near] = regions;
        cells.push(near);
      }
    }
    regions++;
    // Too small to be a band (a blot, a photo's eye): left as it is.
    if (cells.length * cell * cell < (width / 25) ** 2) continue;
    // A band holding print is inverted whole, its blank parts too (a blank dark patch left
    // beside inverted print would read as noise).
    let lightIn = 0;
    let pixelsIn = 0;
    for (const at of cells) {
      if (!core[at]) continue;
      lightIn += light[at];
      pixelsIn += sizes[at];
    }
    const share = lightIn / (pixelsIn || 1);
    const whole = share >= MIN_PRINT && share <= MAX_PRINT;
    for (const at of cells) inRegion[at] = whole ? 2 : 1;
  }
  // A region joined to something without print (a dark desk's stripes around a photographed
  // card): only its cells with print around them are inverted, by the same share of light
  // pixels over each cell's neighbourhood. Light is counted in the core cells only: the cells
  // the region grew into at its edge hold the paper beyond it.
  const lightSums = new Float64Array((columns + 1) * (rows + 1));
  const sizeSums = new Float64Array((columns + 1) * (rows + 1));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const at = r * columns + c;
      const below = r * (columns + 1) + c + 1;
      const left = (r + 1) * (columns + 1) + c;
      const corner = r * (columns + 1) + c;
      const here = (r + 1) * (columns + 1) + c + 1;
      lightSums[here] = (inRegion[at] && core[at] ? light[at] : 0) + lightSums[below] +
        lightSums[left] -
        lightSums[corner];
      sizeSums[here] = (inRegion[at] && core[at] ? sizes[at] : 0) + sizeSums[below] +
        sizeSums[left] -
        sizeSums[corner];
    }
  }
  const chosen: number[] = [];
  // Each region's inverted levels: its median is the band's colour, which becomes paper white.
  const levels = new Map<number, Uint32Array>();
  for (let r = 0; r < rows; r++) {
    const top = Math.max(0, r - reach);
    const bottom = Math.min(rows, r + reach + 1);
    for (let c = 0; c < columns; c++) {
      const at = r * columns + c;
      if (!inRegion[at]) continue;
      const left = Math.max(0, c - reach);
      const right = Math.min(columns, c + reach + 1);
      const box = (sums: Float64Array) =>
        sums[bottom * (columns + 1) + right] - sums[top * (columns + 1) + right] -
        sums[bottom * (columns + 1) + left] + sums[top * (columns + 1) + left];
      const share = box(lightSums) / (box(sizeSums) || 1);
      if (inRegion[at] === 1 && (share < MIN_PRINT || share > MAX_PRINT)) continue;
      chosen.push(at);
      const counts = levels.get(region[at]) ?? new Uint32Array(256);
      levels.set(region[at], counts);
      for (let y = r * cell; y < Math.min(height, (r + 1) * cell); y++) {
        for (let x = c * cell; x < Math.min(width, (c + 1) * cell); x++) {
          counts[255 - grey[y * width + x]]++;
        }
      }
    }
  }
  // Inverted, a band of colour is a grey lighter than the print but darker than the paper, and
  // tesseract's one threshold for the page can fall above it (the band's text vanished): its
  // colour is brought to the paper's (the median light pixel outside the regions; not white,
  // or on a grey low-contrast page the threshold falls between band and paper instead).
  const paperCounts = new Uint32Array(256);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x++) {
      const value = grey[y * width + x];
      if (value > threshold && !inRegion[row + Math.floor(x / cell)]) paperCounts[value]++;
    }
  }
  const paper = medianOf(paperCounts) ?? 255;
  const white = new Map<number, Uint8Array>();
  for (const [id, counts] of levels) {
    const median = medianOf(counts) ?? 255;
    const lookup = new Uint8Array(256);
    for (let value = 0; value < 256; value++) {
      lookup[value] = Math.min(255, Math.round((255 - value) * paper / Math.max(1, median)));
    }
    white.set(id, lookup);
  }
  let pixels = 0;
  for (const at of chosen) {
    const r = Math.floor(at / columns);
    const c = at % columns;
    const lookup = white.get(region[at])!;
    for (let y = r * cell; y < Math.min(height, (r + 1) * cell); y++) {
      for (let x = c * cell; x < Math.min(width, (c + 1) * cell); x++) {
        grey[y * width + x] = lookup[grey[y * width + x]];
        pixels++;
      }
    }
  }
  const inverted = new Set(chosen.map((at) => region[at]));
  const found = { regions: inverted.size, pixels };
  return found;
}

/** The median of a histogram of grey levels, or `null` when it is empty. */
function medianOf(counts: Uint32Array): number | null {
  let total = 0;
  for (const count of counts) total += count;
  if (!total) return null;
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += counts[value];
    if (seen * 2 >= total) return value;
  }
  return 255;
}
