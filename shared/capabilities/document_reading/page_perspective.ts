/**
 * A card photographed at a steep angle comes out as a trapezoid: its far
 * edge shorter than its near one, its lines converging, its far rows
 * squashed. Deskewing turns a whole page by one angle and cannot straighten
 * lines whose angles differ across it, so tesseract reads such a card's far
 * half as noise. Here the card's four corners are found on its paper region
 * (`paperRegion`, the search `findCard` runs) and the card is warped back to
 * a rectangle by the projective map between the two.
 *
 * @module
 */
import type { GreyPage } from "./page_image.ts";
import { type ColourPage, filledArea, paperRegion } from "./page_colour.ts";

/** A point: x, y in pixels of the photo as decoded. */
export type Point = [number, number];

/** A card's corners in the photo, clockwise from the top left, and how far from a rectangle. */
export interface Quad {
  /** Top left, top right, bottom right, bottom left, in the photo's pixels. */
  corners: [Point, Point, Point, Point];
  /** The shorter of two opposite edges over the longer, for the less even pair (1: a rectangle). */
  keystone: number;
}

/** Opposite edges more even than this are a rectangle (`findCard` turns it, nothing to warp). */
export const MAX_KEYSTONE = 0.9;
/** At most this share of the paper may lie outside its quad (a corner cut off moves it in). */
const MAX_OUTSIDE = 0.03;
/** The paper must fill this much of its quad: anything less is not a card's outline. */
const MIN_QUAD_FILL = 0.9;

/**
 * The card's corners when the photo shows a card at an angle (a trapezoid,
 * opposite edges differing by more than 10%), else `null` (no card on a
 * background, or a card seen square on). Corners are the paper region's
 * extremes along the two diagonals, pushed out by the search's erosion and
 * the card's border; the paper must fill 90% of the quad they make, and
 * every corner must lie clear of the photo's edges (a card that is the whole
 * photo, its paper cut by a shadow's edge, has corners in the photo's), no
 * more than 3% of the paper may lie outside the quad (a corner hidden by a
 * finger moves in along its diagonal, and the edges beside it stick out), and
 * the table outside it may not be much brighter than its paper (paper in
 * shadow beside the same paper in sun is).
 */
export function findQuad(photo: ColourPage): Quad | null {
  const region = paperRegion(photo);
  if (!region) return null;
  const { pixels, width, step } = region;
  let tl = pixels[0], tr = pixels[0], br = pixels[0], bl = pixels[0];
  let tlScore = Infinity, trScore = -Infinity, brScore = -Infinity, blScore = Infinity;
  for (const i of pixels) {
    const x = i % width, y = (i - x) / width;
    if (x + y < tlScore) (tlScore = x + y, tl = i);
    if (x - y > trScore) (trScore = x - y, tr = i);
    if (x + y > brScore) (brScore = x + y, br = i);
    if (x - y < blScore) (blScore = x - y, bl = i);
  }
  const at = (i: number): Point => [i % width + 0.5, Math.floor(i / width) + 0.5];
  let corners = [at(tl), at(tr), at(br), at(bl)] as [Point, Point, Point, Point];
  // A card seen at an angle has the table all round it. A card that is the whole photo, its
  // paper cut off by a shadow's edge or a band, has two corners in the photo's own corners.
  const clear = Math.max(4, 0.025 * Math.max(width, region.height));
  const inside = ([x, y]: Point) =>
    x >= clear && y >= clear && x <= width - clear && y <= region.height - clear;
  if (!corners.every(inside)) return null;
  const area = quadArea(corners);
  // The paper with its holes filled (print is not paper at the search's size).
  const filled = filledArea(pixels, width);
  if (area <= 0 || filled / area < MIN_QUAD_FILL) return null;
  const keystone = keystoneOf(corners);
  if (keystone > MAX_KEYSTONE) return null;
  // Its outline is the quad's four straight edges. A corner cut off (a finger over it, a
  // vignette darkening it) moves that corner in along the diagonal, and the paper along the
  // two edges beside it then lies outside the quad.
  let outside = 0;
  for (const i of pixels) {
    const x = i % width + 0.5, y = Math.floor(i / width) + 0.5;
    for (let side = 0; side < 4; side++) {
      const [ax, ay] = corners[side], [bx, by] = corners[(side + 1) % 4];
      const length = Math.hypot(bx - ax, by - ay) || 1;
      // Clockwise on screen: the inside is to the right of each edge, where this is positive.
      if (((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length < -1.5) {
        outside++;
        break;
      }
    }
  }
  if (outside > MAX_OUTSIDE * pixels.length) return null;
  // A card's paper is no darker than the table it lies on; paper in shadow beside the same
  // paper in sun is, and its outline (the shadow's edge, the card's border) is no card's.
  const luma = (x: number, y: number) => {
    const px = Math.min(photo.width - 1, Math.max(0, Math.round(x * step)));
    const py = Math.min(photo.height - 1, Math.max(0, Math.round(y * step)));
    const q = (py * photo.width + px) * 3;
    return 0.2126 * photo.rgb[q] + 0.7152 * photo.rgb[q + 1] + 0.0722 * photo.rgb[q + 2];
  };
  const paperLuma: number[] = [];
  for (let k = 0; k < pixels.length; k += Math.max(1, Math.floor(pixels.length / 200))) {
    const x = pixels[k] % width;
    paperLuma.push(luma(x, (pixels[k] - x) / width));
  }
  const centre = [
    corners.reduce((sum, p) => sum + p[0], 0) / 4,
    corners.reduce((sum, p) => sum + p[1], 0) / 4,
  ];
  const ring: number[] = [];
  for (let side = 0; side < 4; side++) {
    const [ax, ay] = corners[side], [bx, by] = corners[(side + 1) % 4];
    for (let t = 0.1; t < 0.95; t += 0.05) {
      const x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
      const d = Math.hypot(x - centre[0], y - centre[1]) || 1;
      ring.push(luma(x + 5 * (x - centre[0]) / d, y + 5 * (y - centre[1]) / d));
    }
  }
  const middle = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
  if (middle(ring) > middle(paperLuma) + 40) return null;
  // Out by two search pixels from the centre: the erosion took one, the border is the other.
  const [cx, cy] = centre;
  corners = corners.map(([x, y]) => {
    const d = Math.hypot(x - cx, y - cy) || 1;
    return [(x + 2 * (x - cx) / d) * step, (y + 2 * (y - cy) / d) * step] as Point;
  }) as [Point, Point, Point, Point];
  return { corners, keystone };
}

/** The shorter of two opposite edges over the longer, for the pair that differs more. */
export function keystoneOf(corners: readonly Point[]): number {
  const [top, right, bottom, left] = edges(corners);
  return Math.min(
    Math.min(top, bottom) / Math.max(top, bottom),
    Math.min(left, right) / Math.max(left, right),
  );
}

function edges(c: readonly Point[]): [number, number, number, number] {
  const d = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  return [d(c[0], c[1]), d(c[1], c[2]), d(c[2], c[3]), d(c[3], c[0])];
}

/** The area of a quad (shoelace). */
function quadArea(c: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = c[i], [x1, y1] = c[(i + 1) % 4];
    sum += x0 * y1 - x1 * y0;
  }
  return Math.abs(sum) / 2;
}

/**
 * The card inside `quad` warped to an upright rectangle. Its width is the
 * longer of the top and bottom edges and its height the longer of the sides,
 * each stretched by the square root of the other pair's ratio (the far half
 * is squashed along both axes, by about that much at its middle). Bilinear
 * sampling; what lies outside the photo is white.
 */
export function rectify(page: GreyPage, quad: Quad): GreyPage {
  const [top, right, bottom, left] = edges(quad.corners);
  const across = Math.min(top, bottom) / Math.max(top, bottom);
  const down = Math.min(left, right) / Math.max(left, right);
  const width = Math.max(1, Math.round(Math.max(top, bottom) / Math.sqrt(down)));
  const height = Math.max(1, Math.round(Math.max(left, right) / Math.sqrt(across)));
  const map = homography(
    [[0, 0], [width, 0], [width, height], [0, height]],
    quad.corners,
  );
  const grey = new Uint8Array(width * height);
  const { width: sw, height: sh, grey: source } = page;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u0 = x + 0.5, v0 = y + 0.5;
      const w = map[6] * u0 + map[7] * v0 + 1;
      const u = (map[0] * u0 + map[1] * v0 + map[2]) / w - 0.5;
      const v = (map[3] * u0 + map[4] * v0 + map[5]) / w - 0.5;
      if (u < 0 || v < 0 || u > sw - 1 || v > sh - 1) {
        grey[y * width + x] = 255;
        continue;
      }
      const x0 = Math.floor(u), y0 = Math.floor(v);
      const x1 = Math.min(sw - 1, x0 + 1), y1 = Math.min(sh - 1, y0 + 1);
      const fx = u - x0, fy = v - y0;
      const a = source[y0 * sw + x0] * (1 - fx) + source[y0 * sw + x1] * fx;
      const b = source[y1 * sw + x0] * (1 - fx) + source[y1 * sw + x1] * fx;
      grey[y * width + x] = Math.round(a * (1 - fy) + b * fy);
    }
  }
  return { width, height, grey };
}

/**
 * The projective map taking each `from` point to its `to` point, as its 8
 * coefficients (the ninth is 1): x' = (a·x + b·y + c) / (g·x + h·y + 1),
 * y' = (d·x + e·y + f) / (g·x + h·y + 1).
 */
export function homography(from: readonly Point[], to: readonly Point[]): number[] {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
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
