/**
 * Print judged against its own surroundings.
 *
 * {@link sauvola}: per-pixel adaptive binarisation (Sauvola's threshold:
 *   the window's mean lowered in proportion to how little the window
 *   varies). One global contrast stretch leaves a pale box, a vignette's dark
 *   corner, a shaded half or a fine hatch behind the values at grey levels
 *   tesseract treats as print; judged window by window, a light pattern's
 *   thin lines fall above the threshold of a window that holds real strokes,
 *   and a box's fill becomes paper. Used where ink must be told from a
 *   shadow or a dark background (`page_orientation.ts`).
 *
 * @module
 */
import type { GreyPage } from "./page_image.ts";

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
