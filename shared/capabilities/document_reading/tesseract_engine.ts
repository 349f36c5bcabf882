/**
 * The offline OCR engine: tesseract.js (WebAssembly) with English and French
 * trained data from the `@tesseract.js-data/eng` and `@tesseract.js-data/fra`
 * packages on disk (nothing is downloaded at run time), after jimp
 * preprocessing: greyscale, small pictures upscaled, contrast stretched, and
 * the page deskewed by the angle that makes its text rows sharpest.
 *
 * Heavy (about 45 MB of WebAssembly and trained data): only the functions that
 * read documents import it.
 *
 * @module
 */
import { Jimp } from "jimp";
import { createWorker, PSM, type Worker } from "tesseract.js";
import eng from "@tesseract.js-data/eng";
import fra from "@tesseract.js-data/fra";
import { ToolFailure } from "@shared/contract/result.ts";
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import { isComplete, mergeReadings, type OcrLine, readDocument } from "./read_document.ts";

type JimpImage = InstanceType<typeof Jimp>;

/** Options for {@link createTesseractEngine}. */
export interface TesseractEngineOptions {
  /** Preprocess with jimp (deskew, contrast, upscale). `false` is the raw baseline. @default true */
  preprocess?: boolean;
  /** Repair and check field values. `false` is the raw baseline. @default true */
  validate?: boolean;
}

/** What preprocessing did, for traces and the benchmark. */
export interface Preprocessed {
  /** PNG bytes handed to tesseract. */
  png: Uint8Array;
  /** The skew it corrected, in degrees. */
  angle: number;
  /** The scale it applied. */
  scale: number;
  /** Whether it unsharp-masked the page. */
  sharpened: boolean;
}

/**
 * Width smaller pictures are brought up to: tesseract reads best at ~30 px
 * capitals, 1800 px wide on our cards (a larger page costs it many times
 * more: 4–25 s of CPU on a blurred or small card).
 */
const TARGET_WIDTH = 1800;

/**
 * Decodes a photo.
 *
 * @throws {ToolFailure} VALIDATION_ERROR when the bytes are not an image jimp can decode.
 */
async function decodeImage(bytes: Uint8Array): Promise<JimpImage> {
  try {
    return await Jimp.read(Buffer.from(bytes)) as JimpImage;
  } catch {
    throw new ToolFailure("VALIDATION_ERROR", "The file is not an image we can read (JPEG or PNG)");
  }
}

/**
 * Greyscale, upscale, contrast stretch and deskew (a decoded image is
 * changed in place). A page that measures blurred is unsharp-masked; with
 * `sharpen`, any page is (the second look at a page the first left with gaps
 * or doubts: it recovers small and low-contrast print).
 *
 * @throws {ToolFailure} VALIDATION_ERROR when the bytes are not an image jimp can decode.
 */
export async function preprocess(
  page: Uint8Array | JimpImage,
  options: { sharpen?: boolean } = {},
): Promise<Preprocessed> {
  const image = page instanceof Uint8Array ? await decodeImage(page) : page;
  image.greyscale();
  const sharp = sharpness(image);
  const scale = image.bitmap.width < TARGET_WIDTH ? TARGET_WIDTH / image.bitmap.width : 1;
  if (scale > 1) image.resize({ w: TARGET_WIDTH });
  image.normalize();
  const sharpened = (options.sharpen ?? false) || sharp < BLURRED_BELOW;
  if (sharpened) unsharpMask(image);
  const angle = estimateSkew(image);
  if (Math.abs(angle) >= 0.4) {
    image.rotate({ deg: -angle, mode: false });
    fillTransparent(image);
  }
  return { png: new Uint8Array(await image.getBuffer("image/png")), angle, scale, sharpened };
}

/**
 * Below this {@link sharpness} a page is blurred enough that an unsharp mask
 * helps tesseract (tuned on the dev fixtures: sharp pages measure 220–330,
 * small or low-contrast ones 140–165, camera blur 85–130).
 */
export const BLURRED_BELOW = 120;

/**
 * How sharp the page's edges are: the 90th percentile of the gradient
 * magnitude (of pixels on an edge at all) at 900 px wide after contrast
 * stretching, 0–510. Text in focus has steep edges; blur flattens them.
 */
export function sharpness(image: JimpImage): number {
  const small = image.clone();
  small.resize({ w: 900 });
  small.normalize();
  const { width, height, data } = small.bitmap;
  const grey = (x: number, y: number) => data[(y * width + x) * 4];
  const magnitudes: number[] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const magnitude = Math.abs(grey(x + 1, y) - grey(x - 1, y)) +
        Math.abs(grey(x, y + 1) - grey(x, y - 1));
      if (magnitude > 20) magnitudes.push(magnitude);
    }
  }
  if (magnitudes.length === 0) return 0;
  magnitudes.sort((a, b) => a - b);
  return magnitudes[Math.floor(magnitudes.length * 0.9)];
}

// Unsharp mask: the page plus 1.5 × its difference from a blurred copy. The page is grey
// (R = G = B) here, so one channel is blurred and the difference applied to all three.
function unsharpMask(image: JimpImage): void {
  const { width, height, data } = image.bitmap;
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = data[i * 4];
  const soft = inPlaceGaussian(grey, width, height, 2);
  for (let i = 0; i < grey.length; i++) {
    for (let c = 0; c < 3; c++) {
      const value = data[i * 4 + c];
      data[i * 4 + c] = Math.max(0, Math.min(255, value + 1.5 * (value - soft[i])));
    }
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
 * The page's skew in degrees (counter-clockwise positive, as jimp rotates):
 * the angle at which the dark pixels' rows, projected, are most uneven
 * (text lines concentrate ink in few rows). Searched on a reduced copy
 * from -8° to 8°, coarse then fine.
 */
export function estimateSkew(image: JimpImage): number {
  const small = image.clone();
  small.resize({ w: 500 });
  const { width, height, data } = small.bitmap;
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += data[i];
  const mean = sum / (width * height);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4] < mean * 0.6) {
        xs.push(x - width / 2);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50) return 0;
  const spread = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    const bins = new Float64Array(height * 2 + 2);
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

// jimp's rotation leaves transparent corners: make them white paper.
function fillTransparent(image: JimpImage): void {
  const data = image.bitmap.data;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] < 255) {
      const alpha = data[i + 3] / 255;
      for (let c = 0; c < 3; c++) data[i + c] = data[i + c] * alpha + 255 * (1 - alpha);
      data[i + 3] = 255;
    }
  }
}

/** Where both languages' trained data live: one folder, as tesseract.js reads `<langPath>/<lang>.traineddata.gz`. */
async function languageFolder(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "easymo_tessdata_" });
  for (const language of [eng, fra]) {
    // The packages' "best_int" models: LSTM only, integer weights (smaller and faster).
    const file = `${language.langPath}_best_int/${language.code}.traineddata.gz`;
    await Deno.symlink(file, `${dir}/${language.code}.traineddata.gz`);
  }
  return dir;
}

/**
 * Reads a page with tesseract: its lines with their confidence, and each
 * line's words with their boxes (the reader finds a value by where it sits
 * from its label, not by line order).
 */
export async function recognizeLines(worker: Worker, png: Uint8Array): Promise<OcrLine[]> {
  const result = await worker.recognize(Buffer.from(png), {}, { blocks: true, text: true });
  const lines: OcrLine[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.text.replace(/\s+/g, " ").trim();
        if (!text) continue;
        const words = line.words.filter((word) => word.text.trim()).map((word) => ({
          text: word.text.trim(),
          confidence: word.confidence,
          box: { x0: word.bbox.x0, y0: word.bbox.y0, x1: word.bbox.x1, y1: word.bbox.y1 },
        }));
        lines.push({ text, confidence: line.confidence, words });
      }
    }
  }
  return lines;
}

/**
 * The tesseract engine. One worker, started on first use and reused (calls
 * queue on it); `close()` ends it.
 */
export function createTesseractEngine(options: TesseractEngineOptions = {}): OcrEngine & {
  /** The OCR lines of an image, after preprocessing when enabled (measurements). */
  lines(bytes: Uint8Array): Promise<OcrLine[]>;
} {
  const usePreprocess = options.preprocess ?? true;
  let worker: Promise<Worker> | null = null;
  let folder: string | null = null;
  // (Its message handlers keep the async context of the call that started it; the agent
  // runs each turn in a clean LangGraph context, so no turn inherits a node's config.)
  const start = () => {
    worker ??= (async () => {
      folder = await languageFolder();
      const started = await createWorker(["eng", "fra"], 1, {
        langPath: folder,
        gzip: true,
        cacheMethod: "none",
      });
      // One uniform block: a form's label and value stay on one line (page
      // segmentation would read the labels' column and the values' column apart).
      await started.setParameters({
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
        user_defined_dpi: "300",
      });
      return started;
    })();
    return worker;
  };
  const lines = async (bytes: Uint8Array) => {
    const png = usePreprocess ? (await preprocess(bytes)).png : bytes;
    return recognizeLines(await start(), png);
  };
  return {
    provider: "tesseract",
    lines,
    async read(request: OcrRequest) {
      const readOptions = { today: request.today, validate: options.validate ?? true };
      try {
        if (!usePreprocess) return readDocument(await lines(request.bytes), readOptions);
        const image = await decodeImage(request.bytes);
        const looked = await preprocess(image.clone() as JimpImage);
        const first = readDocument(await recognizeLines(await start(), looked.png), readOptions);
        // Pages with gaps or doubts get a second look; a clean read, a receipt, or a page
        // already sharpened (the second look would be the same picture) does not.
        if (first.kind === "not_a_document" || isComplete(first) || looked.sharpened) return first;
        const png = (await preprocess(image, { sharpen: true })).png;
        const second = readDocument(await recognizeLines(await start(), png), readOptions);
        return mergeReadings(first, second);
      } catch (error) {
        if (error instanceof ToolFailure) throw error;
        throw new ToolFailure(
          "SERVICE_UNAVAILABLE",
          "The document reader failed; please try again",
        );
      }
    },
    async close() {
      const running = worker;
      worker = null;
      if (running) await (await running).terminate();
      if (folder) await Deno.remove(folder, { recursive: true }).catch(() => {});
    },
  };
}
