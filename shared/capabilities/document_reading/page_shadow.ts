/**
 * A card half in deep shadow, half in sun: the shadow's paper is as dark as
 * the sunlit print, so one threshold (tesseract binarises each page with
 * Otsu's) turns the whole shaded part black and its print is lost. The
 * shadow's edge is hard (a wall's, a roof's), so the smooth surface
 * `flattenIllumination` fits cannot follow it. Here the paper's brightness
 * is measured per cell and each pixel is divided by the paper around it,
 * choosing, at a shadow's edge, the neighbouring cell whose paper the pixel
 * belongs to.
 *
 * @module
 */
import type { GreyPage } from "./page_image.ts";
import type { ColourPage } from "./page_colour.ts";

/** What {@link evenShadows} found and did. */
export interface Shadows {
  /** Whether the page was evened out. */
  evened: boolean;
  /** The share of cells whose paper is deep in shadow (under {@link SHADOW_PAPER} of the page's). */
  shaded: number;
  /** Of the shaded cells with print, the share whose print is darker than their paper. */
  darkInk: number;
  /** Of the photo's dark pixels, the share that are strongly coloured ({@link colouredShade}). */
  coloured?: number;
}

/** Options for {@link evenShadows}. */
export interface EvenShadowsOptions {
  /**
   * The photo's {@link colouredShade}, asked only of a page the grey gates would even out: at
   * {@link MAX_COLOURED_SHADE} or more, its dark areas are printed colour (a card's red or
   * orange bands), not shadow, and the page is left as it is.
   * @default not measured: the grey page alone decides
   */
  coloured?: () => number;
}

/**
 * At this share of strongly coloured dark pixels or more, a page's dark areas are printed
 * bands, not shadow. A shadow darkens paper without colouring it: cream or white paper in
 * shade stays unsaturated, while a card's red, orange or green bands are saturated. The
 * `colour_bands` pages measure 0.6–0.95; the `sun_shadow` pages under 0.1.
 */
export const MAX_COLOURED_SHADE = 0.5;

/**
 * Of a photo's dark pixels (luma under {@link SHADOW_PAPER} of its bright paper, the 90th
 * percentile, and not black ink: brightest channel at least 48), the share that are strongly
 * coloured (saturation, (max − min) / max, at least 0.4). 0 when the photo has no dark pixels.
 */
export function colouredShade(photo: ColourPage): number {
  const { rgb } = photo;
  const pixels = rgb.length / 3;
  const luma = new Uint8Array(pixels);
  const counts = new Uint32Array(256);
  for (let i = 0, q = 0; i < pixels; i++, q += 3) {
    const value = Math.round(0.299 * rgb[q] + 0.587 * rgb[q + 1] + 0.114 * rgb[q + 2]);
    luma[i] = value;
    counts[value]++;
  }
  let seen = 0, bright = 255;
  for (let value = 0; value < 256; value++) {
    seen += counts[value];
    if (seen >= pixels * 0.9) {
      bright = value;
      break;
    }
  }
  let dark = 0, coloured = 0;
  for (let i = 0, q = 0; i < pixels; i++, q += 3) {
    if (luma[i] >= SHADOW_PAPER * bright) continue;
    const high = Math.max(rgb[q], rgb[q + 1], rgb[q + 2]);
    if (high < 48) continue;
    dark++;
    if (high - Math.min(rgb[q], rgb[q + 1], rgb[q + 2]) >= 0.4 * high) coloured++;
  }
  return dark ? coloured / dark : 0;
}

/** Cells of this many pixels (at the working width: about two lines of print) sample the paper. */
const CELL = 24;
/** Paper under this share of the page's brightest paper is in deep shadow. */
export const SHADOW_PAPER = 0.55;
/** At least this share of cells must be in shadow for the page to be evened out. */
const MIN_SHADED = 0.08;
/** And this share of the shaded cells holding print must hold dark print (not a light-on-dark band). */
const MIN_DARK_INK = 0.7;

/**
 * Evens out deep shadow on a page, in place. Per 24 px cell: its paper (90th
 * percentile), its median and its ink (10th percentile). A page is evened
 * out only when at least 8% of its cells have paper under 0.55 of the page's
 * brightest (the 90th percentile of the cells' paper), and at least 70% of
 * those that hold print have it darker than their paper (the median nearer
 * the paper than the ink): a dark band with light print on it is the
 * opposite, and is left for `invertDarkRegions`; and, when the photo's colours are given,
 * its dark pixels are not mostly strongly coloured ({@link colouredShade}: printed bands, not
 * shadow). Each pixel is then divided
 * by the paper of one of the four cells around it: the darkest whose paper
 * is at least 90% of the pixel (a pixel in the shadow takes the shadow's
 * paper, one in the sun the sun's, even within a cell of the edge), and
 * brought to the page's brightest paper.
 */
export function evenShadows(page: GreyPage, options: EvenShadowsOptions = {}): Shadows {
  const { width, height, grey } = page;
  const columns = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  if (columns < 4 || rows < 3) return { evened: false, shaded: 0, darkInk: 0 };
  const paper = new Float32Array(columns * rows);
  const median = new Float32Array(columns * rows);
  const ink = new Float32Array(columns * rows);
  const counts = new Uint32Array(256);
  const size = CELL * CELL;
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      counts.fill(0);
      for (let y = cy * CELL; y < (cy + 1) * CELL; y++) {
        for (let x = cx * CELL; x < (cx + 1) * CELL; x++) counts[grey[y * width + x]]++;
      }
      const cell = cy * columns + cx;
      let seen = 0;
      for (let value = 0; value < 256; value++) {
        const before = seen;
        seen += counts[value];
        if (before < size * 0.1 && seen >= size * 0.1) ink[cell] = value;
        if (before < size * 0.5 && seen >= size * 0.5) median[cell] = value;
        if (before < size * 0.9 && seen >= size * 0.9) paper[cell] = value;
      }
    }
  }
  const sorted = [...paper].sort((a, b) => a - b);
  const brightest = sorted[Math.floor(sorted.length * 0.9)];
  if (brightest < 60) return { evened: false, shaded: 0, darkInk: 0 };
  let shaded = 0, withPrint = 0, dark = 0;
  for (let i = 0; i < paper.length; i++) {
    if (paper[i] >= SHADOW_PAPER * brightest) continue;
    shaded++;
    // A cell of plain paper (or plain band) says nothing about which way its print goes.
    if (paper[i] - ink[i] < 12) continue;
    withPrint++;
    if (paper[i] - median[i] < median[i] - ink[i]) dark++;
  }
  const share = shaded / paper.length;
  const darkInk = withPrint ? dark / withPrint : 0;
  if (share < MIN_SHADED || darkInk < MIN_DARK_INK) {
    return { evened: false, shaded: share, darkInk };
  }
  // Light print on dark bands fools the cells (the bands' edges and grain read as dark print on
  // shaded paper); the photo's colours tell a band from a shadow.
  const coloured = options.coloured?.();
  if (coloured !== undefined && coloured >= MAX_COLOURED_SHADE) {
    return { evened: false, shaded: share, darkInk, coloured };
  }
  for (let y = 0; y < height; y++) {
    // The two cell rows whose centres lie either side of this pixel row (clamped at the edges).
    const fy = Math.min(rows - 1, Math.max(0, (y - CELL / 2) / CELL));
    const r0 = Math.floor(fy), r1 = Math.min(rows - 1, r0 + 1);
    for (let x = 0; x < width; x++) {
      const fx = Math.min(columns - 1, Math.max(0, (x - CELL / 2) / CELL));
      const c0 = Math.floor(fx), c1 = Math.min(columns - 1, c0 + 1);
      const value = grey[y * width + x];
      let chosen = Infinity, brightestAround = 0;
      for (
        const cell of [r0 * columns + c0, r0 * columns + c1, r1 * columns + c0, r1 * columns + c1]
      ) {
        const around = paper[cell];
        if (around > brightestAround) brightestAround = around;
        if (around >= 0.9 * value && around < chosen) chosen = around;
      }
      const background = Math.max(16, chosen === Infinity ? brightestAround : chosen);
      grey[y * width + x] = Math.min(255, Math.round(value * brightest / background));
    }
  }
  return { evened: true, shaded: share, darkInk, coloured };
}
