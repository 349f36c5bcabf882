/**
 * What a phone camera does to a document, applied with jimp to a clean
 * rendering: a few degrees of rotation, blur, low contrast with heavy JPEG
 * compression, a photo at an angle on a desk (a perspective warp onto a
 * wood-coloured background), a small picture, or a blur nobody could read.
 * Deterministic: the same image, condition and generator give the same bytes.
 *
 * @module
 */
import { Jimp } from "jimp";

/** The capture conditions the fixtures cover. */
export const CONDITIONS = [
  "clean",
  "rotated",
  "blurred",
  "low_contrast_jpeg",
  "desk_angle",
  "small",
] as const;

/**
 * Every kind of photographic damage the layout-family set is measured under:
 * the conditions above plus heavy JPEG, sensor grain and a lamp's glare.
 */
export const DAMAGES = [...CONDITIONS, "jpeg", "grain", "glare"] as const;

/** A capture condition; `unreadable` is a blur heavy enough that the document must be refused. */
export type Condition = typeof DAMAGES[number] | "unreadable";

type JimpImage = Awaited<ReturnType<typeof Jimp.read>>;

/**
 * Degrades a rendered PNG as `condition` says and answers JPEG bytes.
 *
 * @param png The clean rendering.
 * @param condition What the camera did.
 * @param random The seeded generator (angles and strengths).
 */
export async function degrade(
  png: Uint8Array,
  condition: Condition,
  random: () => number,
): Promise<Uint8Array> {
  const image = await Jimp.read(Buffer.from(png));
  const sign = random() < 0.5 ? -1 : 1;
  let quality = 85;
  let out = image;
  switch (condition) {
    case "clean":
      break;
    case "rotated":
      out = onBackground(image, 40, 0xffffffff);
      out.rotate({ deg: sign * (2 + random() * 3), mode: false });
      break;
    case "blurred":
      out.gaussian(1 + Math.floor(random() * 2));
      break;
    case "low_contrast_jpeg":
      out.contrast(-0.45 - random() * 0.15);
      out.brightness(1.1);
      quality = 30;
      break;
    case "desk_angle":
      out = onDesk(image, random);
      quality = 70;
      break;
    case "small":
      out.resize({ w: Math.round(image.bitmap.width * (0.5 + random() * 0.1)) });
      quality = 75;
      break;
    case "jpeg":
      quality = 12 + Math.floor(random() * 8);
      break;
    case "grain":
      grain(out, 18 + random() * 14, random);
      quality = 80;
      break;
    case "glare":
      glare(out, random);
      quality = 80;
      break;
    case "unreadable":
      out.gaussian(7);
      out.resize({ w: Math.round(image.bitmap.width * 0.5) });
      quality = 40;
      break;
  }
  return new Uint8Array(await out.getBuffer("image/jpeg", { quality }));
}

// Sensor noise: each pixel's brightness moved by up to ±amount.
function grain(image: JimpImage, amount: number, random: () => number): void {
  const data = image.bitmap.data;
  for (let i = 0; i < data.length; i += 4) {
    const noise = (random() + random() - 1) * amount;
    for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c] + noise));
  }
}

// A lamp's reflection: a bright ellipse that washes print out towards its centre.
function glare(image: JimpImage, random: () => number): void {
  const { width, height, data } = image.bitmap;
  const cx = width * (0.25 + random() * 0.5);
  const cy = height * (0.3 + random() * 0.4);
  const rx = width * (0.12 + random() * 0.08);
  const ry = height * (0.15 + random() * 0.1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
      if (d >= 1) continue;
      const strength = 0.75 * (1 - d);
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = data[i + c] + (255 - data[i + c]) * strength;
    }
  }
}

function onBackground(image: JimpImage, margin: number, color: number): JimpImage {
  // jimp's constructor and reader answer the same class under two declared types.
  const canvas = new Jimp({
    width: image.bitmap.width + 2 * margin,
    height: image.bitmap.height + 2 * margin,
    color,
  });
  canvas.composite(image, margin, margin);
  return canvas as unknown as JimpImage;
}

/**
 * The document photographed at an angle on a desk: its four corners moved
 * inwards by different amounts (a perspective warp by inverse homography,
 * bilinear sampling) onto a wood-grain background, slightly rotated.
 */
function onDesk(image: JimpImage, random: () => number): JimpImage {
  const { width, height } = image.bitmap;
  const margin = 60;
  const out = new Jimp({ width: width + 2 * margin, height: height + 2 * margin, color: 0 });
  const data = out.bitmap.data;
  // Wood grain: warm browns in bands.
  for (let y = 0; y < out.bitmap.height; y++) {
    for (let x = 0; x < out.bitmap.width; x++) {
      const band = Math.sin((x + 7 * Math.sin(y / 23)) / 9) * 18;
      const i = (y * out.bitmap.width + x) * 4;
      data[i] = 120 + band;
      data[i + 1] = 82 + band * 0.7;
      data[i + 2] = 45 + band * 0.4;
      data[i + 3] = 255;
    }
  }
  const jitter = () => 10 + random() * 35;
  const topShrink = jitter();
  const corners: Array<[number, number]> = [
    [margin + topShrink, margin + jitter() * 0.5],
    [margin + width - topShrink * 0.6, margin + jitter() * 0.3],
    [margin + width + 10, margin + height - jitter() * 0.3],
    [margin - 10, margin + height],
  ];
  const h = homography(corners, [[0, 0], [width, 0], [width, height], [0, height]]);
  const src = image.bitmap.data;
  for (let y = 0; y < out.bitmap.height; y++) {
    for (let x = 0; x < out.bitmap.width; x++) {
      const w = h[6] * x + h[7] * y + 1;
      const u = (h[0] * x + h[1] * y + h[2]) / w;
      const v = (h[3] * x + h[4] * y + h[5]) / w;
      if (u < 0 || v < 0 || u >= width - 1 || v >= height - 1) continue;
      const x0 = Math.floor(u), y0 = Math.floor(v), fx = u - x0, fy = v - y0;
      const i = (y * out.bitmap.width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number) => src[(yy * width + xx) * 4 + c];
        data[i + c] = (p(y0, x0) * (1 - fx) + p(y0, x0 + 1) * fx) * (1 - fy) +
          (p(y0 + 1, x0) * (1 - fx) + p(y0 + 1, x0 + 1) * fx) * fy;
      }
    }
  }
  // A shadow of light across the page, as under a desk lamp.
  out.brightness(0.92);
  return out as unknown as JimpImage;
}

/** The 3×3 homography (h33 = 1) taking each `from` point to its `to` point. */
function homography(
  from: Array<[number, number]>,
  to: Array<[number, number]>,
): number[] {
  const a: number[][] = [];
  const b: number[] = [];
  for (let k = 0; k < 4; k++) {
    const [x, y] = from[k];
    const [u, v] = to[k];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let row = col + 1; row < 8; row++) {
      if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    }
    [a[col], a[pivot]] = [a[pivot], a[col]];
    [b[col], b[pivot]] = [b[pivot], b[col]];
    for (let row = 0; row < 8; row++) {
      if (row === col) continue;
      const factor = a[row][col] / a[col][col];
      for (let k = col; k < 8; k++) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  return b.map((value, i) => value / a[i][i]);
}
