/**
 * Which way up a page is: a card photographed on its side or upside down
 * reads as noise (tesseract's LSTM reads one direction only), and the field
 * reader then refuses it as no document. The deskew (`estimateSkew`) only
 * searches ±8°; these answer the quarter turns.
 *
 * - {@link textRunsVertically}: whether the page's ink is laid out in
 *   columns rather than rows (text lines concentrate ink in a few rows; on a
 *   card turned 90° they concentrate it in a few columns). Measured, not
 *   guessed, so an upright page costs no extra look.
 * - {@link quarterTurn}: the page turned clockwise by 90°, 180° or 270°
 *   exactly (a pixel transpose, no resampling).
 *
 * Which of 90° and 270° (or 0° and 180°) is upright cannot be told from
 * projections; the engine reads the other way only when the first reading
 * found no document, within the page's budget.
 *
 * @module
 */
import { type GreyPage, inkThreshold, scaleTo } from "./page_image.ts";

/** How strongly the ink concentrates in a few rows (or columns): 1 when even, more when lined. */
function concentration(counts: Float64Array): number {
  let sum = 0;
  let squares = 0;
  for (const count of counts) {
    sum += count;
    squares += count * count;
  }
  return sum > 0 ? (squares * counts.length) / (sum * sum) : 1;
}

/** What {@link textRunsVertically} measured. */
export interface Orientation {
  /** Whether the text lines run top to bottom (the page lies on its side). */
  vertical: boolean;
  /** Row concentration of ink (text lines run along rows when this is the larger). */
  rows: number;
  /** Column concentration of ink. */
  columns: number;
}

/**
 * Whether the page's text lines run vertically: the ink's projection onto
 * columns is more uneven than onto rows by `margin` (1.25: an upright card's
 * two columns of values make its column projection uneven too, but less than
 * its lines make the rows). Measured on a copy at most 400 px on its longer
 * side, ink at the page's Otsu threshold; a page with almost no ink is
 * upright.
 */
export function textRunsVertically(page: GreyPage, margin = 1.25): Orientation {
  const longer = Math.max(page.width, page.height);
  const small = longer > 400
    ? scaleTo(page, Math.max(1, Math.round((page.width * 400) / longer)))
    : page;
  const { width, height, grey } = small;
  const threshold = inkThreshold(small);
  const rows = new Float64Array(height);
  const columns = new Float64Array(width);
  let ink = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (grey[y * width + x] < threshold) {
        rows[y]++;
        columns[x]++;
        ink++;
      }
    }
  }
  if (ink < 50) return { vertical: false, rows: 1, columns: 1 };
  const byRow = concentration(rows);
  const byColumn = concentration(columns);
  return { vertical: byColumn > byRow * margin, rows: byRow, columns: byColumn };
}

/**
 * The page turned clockwise by `quarters` × 90° (1, 2 or 3), pixel for
 * pixel. 0 answers a copy.
 */
export function quarterTurn(page: GreyPage, quarters: number): GreyPage {
  const turns = ((quarters % 4) + 4) % 4;
  const { width, height, grey } = page;
  if (turns === 0) return { width, height, grey: grey.slice() };
  const outWidth = turns === 2 ? width : height;
  const outHeight = turns === 2 ? height : width;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [tx, ty] = turns === 1
        ? [height - 1 - y, x]
        : turns === 2
        ? [width - 1 - x, height - 1 - y]
        : [y, width - 1 - x];
      out[ty * outWidth + tx] = grey[y * width + x];
    }
  }
  return { width: outWidth, height: outHeight, grey: out };
}
