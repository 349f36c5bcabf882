/**
 * Print judged against its own surroundings, and print too small to read.
 *
 * - {@link sauvola}: per-pixel adaptive binarisation (Sauvola's threshold:
 *   the window's mean lowered in proportion to how little the window
 *   varies). One global contrast stretch leaves a pale box, a vignette's dark
 *   corner, a shaded half or a fine hatch behind the values at grey levels
 *   tesseract treats as print; judged window by window, a light pattern's
 *   thin lines fall above the threshold of a window that holds real strokes,
 *   and a box's fill becomes paper.
 * - {@link textHeight}: the height of the page's letters, from its
 *   connected components of ink (the median height of the letter-sized
 *   ones). Tesseract's LSTM reads letters 20–40 px high best; print under
 *   that at the working width is read with a larger copy.
 *
 * @module
 */
import { type GreyPage, inkThreshold } from "./page_image.ts";

/** Options for {@link sauvola}. */
export interface SauvolaOptions {
  /** The window's side in pixels (odd). @default 1/40 of the page's width, at least 15 */
  window?: number;
  /** How far below the mean a quiet window's threshold falls (Sauvola's k). @default 0.2 */
  k?: number;
  /** The standard deviation taken for full contrast (Sauvola's R). @default 128 */
  range?: number;
}

/**
 * The page binarised at Sauvola's threshold, `T = m · (1 + k · (s / R − 1))`
 * over a square window around each pixel (its mean `m` and standard
 * deviation `s` from integral images: the cost does not grow with the
 * window): ink 0, paper 255. A new page; `page` is left as it was.
 */
export function sauvola(page: GreyPage, options: SauvolaOptions = {}): GreyPage {
  const { width, height, grey } = page;
  const half = Math.floor((options.window ?? Math.max(15, Math.round(width / 40) | 1)) / 2);
  const k = options.k ?? 0.2;
  const range = options.range ?? 128;
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    let rowSquares = 0;
    for (let x = 0; x < width; x++) {
      const value = grey[y * width + x];
      row += value;
      rowSquares += value * value;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
      squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - half);
    const bottom = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - half);
      const right = Math.min(width, x + half + 1);
      const count = (bottom - top) * (right - left);
      const a = top * stride + left;
      const b = top * stride + right;
      const c = bottom * stride + left;
      const d = bottom * stride + right;
      const mean = (sums[d] - sums[b] - sums[c] + sums[a]) / count;
      const variance = (squares[d] - squares[b] - squares[c] + squares[a]) / count - mean * mean;
      const deviation = Math.sqrt(Math.max(0, variance));
      const threshold = mean * (1 + k * (deviation / range - 1));
      out[y * width + x] = grey[y * width + x] <= threshold ? 0 : 255;
    }
  }
  return { width, height, grey: out };
}

/** What {@link textHeight} measured. */
export interface TextHeight {
  /** The median height of the letter-sized components, in pixels (0: none found). */
  height: number;
  /** How many components were letter-sized. */
  letters: number;
}

/**
 * The height of the page's letters: its connected components of ink (at the
 * Otsu threshold, 8-connected) that are letter-shaped (at least 3 px high,
 * at most 1/8 of the page's height, no more than 3× as wide as high, not a
 * speck of under 6 pixels), their median height. A page with fewer than 20
 * such components answers 0 (no text to judge).
 */
export function textHeight(page: GreyPage): TextHeight {
  const { width, height, grey } = page;
  const threshold = inkThreshold(page);
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const heights: number[] = [];
  for (let start = 0; start < grey.length; start++) {
    if (seen[start] || grey[start] > threshold) continue;
    let top = height;
    let bottom = -1;
    let left = width;
    let right = -1;
    let pixels = 0;
    let size = 0;
    stack[size++] = start;
    seen[start] = 1;
    while (size) {
      const at = stack[--size];
      const x = at % width;
      const y = (at - x) / width;
      pixels++;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      if (x < left) left = x;
      if (x > right) right = x;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (!seen[next] && grey[next] <= threshold) {
            seen[next] = 1;
            stack[size++] = next;
          }
        }
      }
    }
    const h = bottom - top + 1;
    const w = right - left + 1;
    if (pixels >= 6 && h >= 3 && h <= height / 8 && w <= 3 * h) heights.push(h);
  }
  if (heights.length < 20) return { height: 0, letters: heights.length };
  heights.sort((a, b) => a - b);
  return { height: heights[Math.floor(heights.length / 2)], letters: heights.length };
}
