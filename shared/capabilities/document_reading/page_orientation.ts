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
import { type GreyPage, scaleTo } from "./page_image.ts";
import { sauvola } from "./page_threshold.ts";

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
 * its lines make the rows). Each projection is taken at the angle within ±8°
 * where it is most uneven (a card photographed a few degrees off smears its
 * lines across rows). Ink is what Sauvola's threshold takes for ink on a copy
 * at most 400 px on its longer side: strokes, not a shadow, a vignette or a
 * dark background (which one global threshold takes for ink, in columns). A
 * page with almost no ink is upright.
 */
export function textRunsVertically(page: GreyPage, margin = 1.25): Orientation {
  const longer = Math.max(page.width, page.height);
  const small = sauvola(
    longer > 400 ? scaleTo(page, Math.max(1, Math.round((page.width * 400) / longer))) : page,
    { window: 15 },
  );
  const { width, height, grey } = small;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (grey[y * width + x] === 0) {
        xs.push(x - width / 2);
        ys.push(y - height / 2);
      }
    }
  }
  if (xs.length < 50) return { vertical: false, rows: 1, columns: 1 };
  const reach = Math.ceil(Math.hypot(width, height) / 2) + 1;
  const bins = new Float64Array(2 * reach + 1);
  // Along rows (`across` false: y projected) or columns, turned by `degrees`.
  const uneven = (degrees: number, across: boolean) => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) {
      const at = across ? xs[i] * cos - ys[i] * sin : ys[i] * cos + xs[i] * sin;
      bins[Math.round(at) + reach]++;
    }
    return concentration(bins);
  };
  let rows = 0;
  let columns = 0;
  for (let degrees = -8; degrees <= 8; degrees += 2) {
    rows = Math.max(rows, uneven(degrees, false));
    columns = Math.max(columns, uneven(degrees, true));
  }
  // Normalised by the span each projection can cover, so a wide page's rows and a tall one's
  // columns compare alike.
  rows *= height / bins.length;
  columns *= width / bins.length;
  return { vertical: columns > rows * margin, rows, columns };
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
