/**
 * The offline OCR engine: tesseract.js (WebAssembly) with English and French
 * trained data from the `@tesseract.js-data/eng` and `@tesseract.js-data/fra`
 * packages on disk (nothing is downloaded at run time), after preprocessing
 * on one grey channel (`page_image.ts`): every page brought to one working
 * width (small pictures up, phone photos down), contrast stretched, blurred
 * pages sharpened, and the page deskewed by the angle that makes its text
 * rows sharpest, light print on dark bands inverted; a page whose text runs
 * down the page turned a quarter first. One look at the page (turned the
 * other way round once more when it finds no document); a
 * second, sharper one only when the reader says the first did not read
 * enough (`enough`); then the areas of labels whose value is still missing
 * read once more, enlarged and binarised, while the page's budget lasts.
 *
 * Heavy (about 45 MB of WebAssembly and trained data): only the functions that
 * read documents import it.
 *
 * @module
 */
import { createWorker, PSM, type Worker } from "tesseract.js";
import eng from "@tesseract.js-data/eng";
import fra from "@tesseract.js-data/fra";
import { ToolFailure } from "@shared/contract/result.ts";
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import {
  type Box,
  type DocumentReading,
  isComplete,
  mergeReadings,
  missingValues,
  type OcrLine,
  readDocument,
} from "./read_document.ts";
import {
  type DarkRegions,
  decodeGrey,
  estimateSkew,
  type GreyPage,
  inkThreshold,
  invertDarkRegions,
  removeRules,
  rotate,
  type RulesRemoved,
  scaleTo,
  sharpness,
  stretchContrast,
  toPgm,
  unsharpMask,
} from "./page_image.ts";
import {
  type CardRegion,
  colourGrey,
  cropTo,
  decodeColour,
  findCard,
  flattenIllumination,
  type Illumination,
  shrinkColour,
} from "./page_colour.ts";
import { quarterTurn, textRunsVertically } from "./page_orientation.ts";
import { findQuad, type Quad, rectify } from "./page_perspective.ts";
import { colouredShade, evenShadows, type Shadows } from "./page_shadow.ts";

/** Options for {@link createTesseractEngine}. */
export interface TesseractEngineOptions {
  /** Preprocess (scale, contrast, deskew, sharpen). `false` is the raw baseline. @default true */
  preprocess?: boolean;
  /** Repair and check field values. `false` is the raw baseline. @default true */
  validate?: boolean;
  /**
   * Whether a look at the page already read enough that no second, sharper
   * look is worth its cost. The field reader decides, not the engine.
   * @default every field of the page's type found and passing its checks ({@link isComplete})
   */
  enough?: (lines: readonly OcrLine[], today: Date) => boolean;
  /** The width a page is read at (see {@link WORK_WIDTH}). @default WORK_WIDTH */
  workWidth?: number;
  /**
   * Erase table rules and borders before reading ({@link removeRules}). `false` is the reader
   * before rule removal, for the benchmark's before/after. @default true
   */
  removeRules?: boolean;
  /**
   * Read the area of a label whose value the page look did not read once more, larger and
   * binarised ({@link missingValues}). `false` is the reader before it. @default true
   */
  reread?: boolean;
  /**
   * When the first look finds no document, read the page once more turned the other way
   * (upside down; a page read on one side, on its other side), while the budget lasts.
   * `false` is the reader before it. @default true
   */
  orient?: boolean;
  /**
   * Read the area of a field read but doubtful (failing its check) once more too, as a missing
   * value's is read; a reread value that passes wins. `false` is the reader before it.
   * @default true
   */
  rereadDoubtful?: boolean;
  /** Told of each look at a page (one `recognize()` each), for traces and the benchmark. */
  onLook?: (look: Look) => void;
  /**
   * Milliseconds one page may take ({@link PAGE_BUDGET_MS}): a second look is taken only when
   * the time spent so far plus what the first look cost (the second reads a picture of the same
   * size) still fits in it. A page that is slow to read (noise read as long runs of letters) is
   * slow twice, and its second look is what puts the p95 over budget.
   */
  budgetMs?: number;
  /**
   * The clock the budget is kept by, in milliseconds. @default `performance.now` (wall time,
   * what the customer waits). The benchmark passes the process's CPU time, so a machine loaded
   * by others does not decide how many second looks are taken.
   */
  clock?: () => number;
}

/** The tool's latency budget for one page (ocr_extract's `latencyBudgetMs`). */
export const PAGE_BUDGET_MS = 4000;

/** One look at a page: one tesseract `recognize()` of one preprocessed picture. */
export interface Look {
  /** 1 for the first look, 2 for the sharper second, 3 for a reread of a label's area. */
  look: number;
  /** Whether the picture was unsharp-masked. */
  sharpened: boolean;
  /** The picture's size as read. */
  width: number;
  height: number;
  /** The lines it read. */
  lines: readonly OcrLine[];
}

/** What preprocessing did, for traces and the benchmark. */
export interface Preprocessed {
  /** The page handed to tesseract: an uncompressed PGM. */
  image: Uint8Array;
  /** The grey page before deskewing (a second look sharpens it again). */
  page: GreyPage;
  /** The page as handed over, upright (a reread crops it). */
  upright: GreyPage;
  /** The size of the picture handed over (after deskewing). */
  width: number;
  height: number;
  /** The skew it corrected, in degrees. */
  angle: number;
  /** The scale it applied (below 1: a large photo brought down). */
  scale: number;
  /** Whether it unsharp-masked the page. */
  sharpened: boolean;
  /** Rows and columns of table rules it erased. */
  rules: RulesRemoved;
  /** Dark bands, columns or rows holding light print that it inverted. */
  inverted: DarkRegions;
  /** The card it found on a background, turned upright and cropped to (`null`: none). */
  card: CardRegion | null;
  /** The corners of a card photographed at an angle, warped back to a rectangle (`null`: none). */
  quad: Quad | null;
  /** Pixels redrawn from their colour ({@link colourGrey}). */
  recoloured: number;
  /** Whether it divided out uneven light. */
  illumination: Illumination;
  /** Whether it evened out a hard-edged deep shadow ({@link evenShadows}). */
  shadows: Shadows;
  /**
   * The page as decoded (colours weighed, a card cropped out of its background), before it
   * was turned and scaled: another look at the page (turned another way) starts from it.
   */
  source: GreyPage;
  /** Quarter turns clockwise it was given (1: its text ran down the page; see `quarters`). */
  quarters: number;
}

/**
 * The width every page is read at. Smaller pictures come up to it; larger
 * ones (a phone photo is 3000–4000 px wide) come down, since tesseract's time
 * grows with the pixels (a 4032 px photo cost 5–14 s of CPU at full size). Chosen on the
 * dev fixtures (fields right of 144, CPU p95 a page): 1200 px 135 (a card
 * refused), 1350 px 137, 1500 px 138 (2.0 s), 1800 px 136 (2.8 s).
 */
export const WORK_WIDTH = 1500;

/**
 * Greyscale, scale to the working width, contrast stretch and deskew. A page
 * that measures blurred is unsharp-masked; with `sharpen`, any page is (the
 * second look at a page the first left with gaps or doubts: it recovers
 * small and low-contrast print).
 *
 * @throws {ToolFailure} VALIDATION_ERROR when the bytes are not an image we can decode.
 */
export async function preprocess(
  photo: Uint8Array | GreyPage,
  options: {
    sharpen?: boolean;
    workWidth?: number;
    removeRules?: boolean;
    /** Invert light print on dark regions ({@link invertDarkRegions}). @default true */
    invertDark?: boolean;
    /**
     * The photo's colours: print told from its band by colour only ({@link colourGrey}), a
     * card on a busy background found, turned upright and cropped ({@link findCard}).
     * @default true
     */
    colour?: boolean;
    /** Divide a shadow or fading light out of the page ({@link flattenIllumination}). @default true */
    flatten?: boolean;
    /**
     * Warp a card photographed at an angle (a trapezoid) back to a rectangle ({@link findQuad}).
     * Needs `colour`. @default true
     */
    perspective?: boolean;
    /** Even out a hard-edged deep shadow ({@link evenShadows}). @default true */
    shadows?: boolean;
    /**
     * Quarter turns clockwise to give the page before it is read. @default one when its text
     * runs down the page ({@link textRunsVertically}: a card photographed on its side), else none
     */
    quarters?: number;
  } = {},
): Promise<Preprocessed> {
  let decoded: GreyPage;
  let card: CardRegion | null = null;
  let quad: Quad | null = null;
  let recoloured = 0;
  // The photo's colours, for the shadow gate (a band of colour is not a shadow).
  let coloured: (() => number) | undefined;
  if (!(photo instanceof Uint8Array)) decoded = photo;
  else if (options.colour ?? true) {
    // A phone's 12 megapixels come down first: colours are weighed at about the working size.
    const colour = shrinkColour(await decodeColour(photo), options.workWidth ?? WORK_WIDTH);
    const grey = colourGrey(colour);
    recoloured = grey.recoloured;
    coloured = () => colouredShade(colour);
    // A card seen at an angle: its converging lines straightened before anything is measured.
    quad = (options.perspective ?? true) ? findQuad(colour) : null;
    // A card on a tablecloth: upright and alone before contrast, blur and skew are measured.
    card = quad ? null : findCard(colour);
    decoded = quad
      ? rectify(grey.page, quad)
      : card
      ? cropTo(rotate(grey.page, card.angle), card.box)
      : grey.page;
  } else decoded = await decodeGrey(photo);
  const source = decoded;
  // A card on its side: tesseract reads lines left to right only. Measured on every page (a few
  // ms at 400 px); no upright page of the fixtures measured as running down.
  const quarters = options.quarters ?? (textRunsVertically(decoded).vertical ? 1 : 0);
  if (quarters % 4) decoded = quarterTurn(decoded, quarters);
  const width = options.workWidth ?? WORK_WIDTH;
  // Measured on the photo as it came (the threshold was tuned there).
  const sharp = sharpness(decoded);
  const page = scaleTo(decoded, width);
  const illumination = (options.flatten ?? true)
    ? flattenIllumination(page)
    : { flattened: false, ratio: 1, inliers: 0, steps: 0 };
  // A hard shadow's edge is a step no smooth surface fits: evened out cell by cell instead.
  const shadows = (options.shadows ?? true) && !illumination.flattened
    ? evenShadows(page, { coloured })
    : { evened: false, shaded: 0, darkInk: 0 };
  stretchContrast(page);
  const sharpened = (options.sharpen ?? false) || sharp < BLURRED_BELOW;
  const looked = sharpened ? sharpenedCopy(page) : page;
  const angle = estimateSkew(looked);
  const turned = Math.abs(angle) >= 0.4 ? rotate(looked, angle) : looked;
  // Rules are found along rows and columns, so they go once the page is upright; `page`
  // itself stays as it was for a second look.
  const upright = turned === page ? { ...page, grey: page.grey.slice() } : turned;
  // Before the rules go: inverting a band leaves a thin line at its edge, which is one.
  const inverted = (options.invertDark ?? true)
    ? invertDarkRegions(upright)
    : { regions: 0, pixels: 0 };
  const rules = (options.removeRules ?? true)
    ? removeRules(upright)
    : { horizontal: 0, vertical: 0 };
  return {
    image: toPgm(upright),
    upright,
    rules,
    inverted,
    page,
    width: upright.width,
    height: upright.height,
    angle,
    scale: width / decoded.width,
    sharpened,
    card,
    quad,
    recoloured,
    illumination,
    shadows,
    source,
    quarters,
  };
}

function sharpenedCopy(page: GreyPage): GreyPage {
  const copy = { ...page, grey: page.grey.slice() };
  unsharpMask(copy);
  return copy;
}

/**
 * Below this {@link sharpness} a page is blurred enough that an unsharp mask
 * helps tesseract (tuned on the dev fixtures: sharp pages measure 220–330,
 * small or low-contrast ones 140–165, camera blur 85–130).
 */
export const BLURRED_BELOW = 120;

/**
 * Whether a second look fits in a page's budget: the first look's cost (its
 * preprocessing and recognition) spent once more on top of what was spent.
 */
export function secondLookFits(firstLookMs: number, budgetMs: number): boolean {
  return firstLookMs * 2 <= budgetMs;
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
export async function recognizeLines(worker: Worker, image: Uint8Array): Promise<OcrLine[]> {
  const result = await worker.recognize(Buffer.from(image), {}, { blocks: true, text: true });
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
          // Its characters' boxes: letter-spaced print is rebuilt into words from them.
          glyphs: (word.symbols ?? []).map((symbol) => ({
            text: symbol.text,
            box: { x0: symbol.bbox.x0, y0: symbol.bbox.y0, x1: symbol.bbox.x1, y1: symbol.bbox.y1 },
          })),
        }));
        lines.push({ text, confidence: line.confidence, words });
      }
    }
  }
  return lines;
}

/** Labels' areas read again a page, at most (each costs a small `recognize()`). */
export const MAX_REREADS = 4;

/** What a reread is assumed to cost before one has been timed, in milliseconds. */
const MIN_REREAD_MS = 250;

/** How much larger a label's area is read again than the page was. */
export const REREAD_SCALE = 2;

/**
 * A label's area cut out of the page, enlarged {@link REREAD_SCALE} times and binarised
 * (black print on white at the area's own ink threshold: a faint value on a tinted or shaded
 * card stands out once judged against its own surroundings). Given the label's height, the
 * boxes a value is printed in are erased too ({@link eraseBoxes}). `null` when the area is off
 * the page or too small.
 */
export function cropArea(
  page: GreyPage,
  box: Box,
  options: { labelHeight?: number } = {},
): { picture: GreyPage; x0: number; y0: number; scale: number } | null {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(page.width, Math.ceil(box.x1));
  const y1 = Math.min(page.height, Math.ceil(box.y1));
  if (x1 - x0 < 8 || y1 - y0 < 8) return null;
  const cut: GreyPage = {
    width: x1 - x0,
    height: y1 - y0,
    grey: new Uint8Array((x1 - x0) * (y1 - y0)),
  };
  for (let y = y0; y < y1; y++) {
    cut.grey.set(
      page.grey.subarray(y * page.width + x0, y * page.width + x1),
      (y - y0) * cut.width,
    );
  }
  const picture = scaleTo(cut, cut.width * REREAD_SCALE);
  const threshold = inkThreshold(picture);
  for (let i = 0; i < picture.grey.length; i++) {
    picture.grey[i] = picture.grey[i] <= threshold ? 0 : 255;
  }
  const scale = picture.width / cut.width;
  if (options.labelHeight) eraseBoxes(picture, options.labelHeight * scale);
  return { picture, x0, y0, scale };
}

/**
 * Erases the boxes a value is printed in (a date's day, month and year each in a box, a
 * registration's boxed digits) from a label's area: their sides are strokes taller than any
 * character of that print (over {@link BOX_SIDE} label heights), their tops and bottoms runs
 * wider than two label heights. Read with its boxes, tesseract took the sides for `[`, `]` or
 * `|`, or took a box and its digits for one blot and returned nothing; without them it reads
 * `14 03 2018`. The page's own rule removal keeps boxes this small (its rules are a fifteenth of
 * the page long).
 */
export function eraseBoxes(picture: GreyPage, labelHeight: number): RulesRemoved {
  return removeRules(picture, {
    minHorizontal: Math.round(2 * labelHeight),
    minVertical: Math.round(BOX_SIDE * labelHeight),
  });
}

/** How many label heights a box's side is at least (a value's capitals are ~1.2, a box ~2). */
export const BOX_SIDE = 1.6;

/** A line read in a cropped area, with its words' and characters' boxes back on the page. */
export function placeBack(line: OcrLine, area: { x0: number; y0: number; scale: number }): OcrLine {
  const back = (box: Box): Box => ({
    x0: Math.round(area.x0 + box.x0 / area.scale),
    y0: Math.round(area.y0 + box.y0 / area.scale),
    x1: Math.round(area.x0 + box.x1 / area.scale),
    y1: Math.round(area.y0 + box.y1 / area.scale),
  });
  return {
    ...line,
    words: line.words?.map((word) => ({
      ...word,
      box: back(word.box),
      glyphs: word.glyphs?.map((glyph) => ({ ...glyph, box: back(glyph.box) })),
    })),
  };
}

/**
 * The page's lines with the words lying mostly inside `area` taken out and `read` (the area
 * read again, placed back on the page) put in: the area's text is the reread's. The words over
 * `label` (the label the area was placed by, and what precedes it on its row) stay the page's:
 * the page look found that label, and a reread that slips on it (`cyatangiweho` read
 * `cyutangiwsho`) or cuts its first word would leave its value with no label to belong to.
 */
export function replaceIn(
  lines: readonly OcrLine[],
  area: Box,
  read: readonly OcrLine[],
  label?: Box,
): OcrLine[] {
  const within = (box: Box, outer: Box) => {
    const w = Math.max(0, Math.min(box.x1, outer.x1) - Math.max(box.x0, outer.x0));
    const h = Math.max(0, Math.min(box.y1, outer.y1) - Math.max(box.y0, outer.y0));
    return w * h > 0.5 * Math.max(1, (box.x1 - box.x0) * (box.y1 - box.y0));
  };
  const replaced = (box: Box) => within(box, area) && !(label && within(box, label));
  const without = (line: OcrLine, drop: (box: Box) => boolean): OcrLine | null => {
    if (!line.words?.length) return line;
    const words = line.words.filter((word) => !drop(word.box));
    if (words.length === line.words.length) return line;
    return words.length ? { ...line, text: words.map((word) => word.text).join(" "), words } : null;
  };
  const kept = lines.map((line) => without(line, replaced));
  const fresh = read.filter((line) => line.words?.length).map((line) =>
    label ? without(line, (box) => within(box, label)) : line
  );
  return [...kept, ...fresh].filter((line): line is OcrLine => line !== null);
}

/**
 * The tesseract engine. One worker, started on first use and reused (calls
 * queue on it); `close()` ends it once the reads in flight have settled.
 */
export function createTesseractEngine(options: TesseractEngineOptions = {}): OcrEngine & {
  /** The OCR lines of an image, after preprocessing when enabled (measurements). */
  lines(bytes: Uint8Array): Promise<OcrLine[]>;
} {
  const usePreprocess = options.preprocess ?? true;
  const workWidth = options.workWidth;
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
  // Reads still running. A caller that stopped waiting (a tool's timeout) may close the engine
  // while its read goes on: ending the worker under it failed the read inside tesseract.js
  // ("reading 'postMessage'" of a worker already gone), an error nobody was left to catch.
  const inFlight = new Set<Promise<unknown>>();
  const tracked = <T>(read: Promise<T>): Promise<T> => {
    inFlight.add(read);
    read.then(() => inFlight.delete(read), () => inFlight.delete(read));
    return read;
  };
  const budgetMs = options.budgetMs ?? PAGE_BUDGET_MS;
  const clock = options.clock ?? (() => performance.now());
  const enough = options.enough ??
    ((lines: readonly OcrLine[], today: Date) => isComplete(readDocument(lines, { today })));
  const lines = (bytes: Uint8Array) =>
    tracked((async () => {
      const image = usePreprocess
        ? (await preprocess(bytes, { workWidth, removeRules: options.removeRules })).image
        : bytes;
      return recognizeLines(await start(), image);
    })());
  return {
    provider: "tesseract",
    lines,
    read(request: OcrRequest) {
      return tracked(readPage(request));
    },
    async close() {
      // A read that starts while the last ones settle is waited for too.
      while (inFlight.size) await Promise.allSettled([...inFlight]);
      const running = worker;
      worker = null;
      if (running) await (await running).terminate();
      if (folder) await Deno.remove(folder, { recursive: true }).catch(() => {});
    },
  };

  async function readPage(request: OcrRequest): Promise<DocumentReading> {
    const readOptions = { today: request.today, validate: options.validate ?? true };
    // The crop-and-reread: the areas where a found label's value was not read, once more,
    // larger and binarised, while the page's budget lasts; field by field a checked value
    // wins (`mergeReadings`), so a reread never loses what the page look read.
    const reread = async (
      reading: DocumentReading,
      pageLines: OcrLine[],
      picture: Preprocessed,
      started: number,
    ): Promise<DocumentReading> => {
      if (!(options.reread ?? true) || reading.kind !== "document") return reading;
      const doubtful = (options.rereadDoubtful ?? true)
        ? Object.entries(reading.fields).filter(([, field]) => !field.valid).map(([name]) => name)
        : [];
      const wanted = [...reading.missing, ...doubtful];
      if (!wanted.length) return reading;
      // Missing values first: a value found is worth more than a doubtful one confirmed.
      const missing = missingValues(pageLines, { ...readOptions, doubtful })
        .filter((value) => wanted.includes(value.field))
        .sort((a, b) => Number(doubtful.includes(a.field)) - Number(doubtful.includes(b.field)))
        .slice(0, MAX_REREADS);
      let lines = pageLines;
      let cost = 0;
      for (const value of missing) {
        const before = clock();
        if (before - started + Math.max(cost, MIN_REREAD_MS) > budgetMs) break;
        const area = cropArea(picture.upright, value.area, {
          labelHeight: value.label.y1 - value.label.y0,
        });
        if (!area) continue;
        const read = await recognizeLines(await start(), toPgm(area.picture));
        lines = replaceIn(
          lines,
          value.area,
          read.map((line) => placeBack(line, area)),
          // The label and the words before it on its row (its wording in another language):
          // the area's left edge cuts through them, and a cut word read again is a fragment.
          { ...value.label, x0: value.area.x0 },
        );
        cost = clock() - before;
        options.onLook?.({
          look: 3,
          sharpened: false,
          width: area.picture.width,
          height: area.picture.height,
          lines: read,
        });
      }
      return lines === pageLines
        ? reading
        : mergeReadings(reading, readDocument(lines, readOptions));
    };
    try {
      if (!usePreprocess) return readDocument(await lines(request.bytes), readOptions);
      const look = async (number: number, picture: Preprocessed) => {
        const lines = await recognizeLines(await start(), picture.image);
        options.onLook?.({
          look: number,
          sharpened: picture.sharpened,
          width: picture.width,
          height: picture.height,
          lines,
        });
        return lines;
      };
      const started = clock();
      let looked = await preprocess(request.bytes, {
        workWidth,
        removeRules: options.removeRules,
      });
      let firstLines = await look(1, looked);
      let first = readDocument(firstLines, readOptions);
      // No document on the first look: the page may be upside down (or on its other side).
      // Read turned the other way while a look of the first's cost still fits the budget; a
      // receipt stays refused, it only costs the look.
      if (first.kind === "not_a_document" && (options.orient ?? true)) {
        const turnedCost = clock() - started;
        const quarters = looked.quarters % 2 ? (looked.quarters + 2) % 4 : 2;
        if (secondLookFits(turnedCost, budgetMs)) {
          const turned = await preprocess(looked.source, {
            workWidth,
            removeRules: options.removeRules,
            quarters,
          });
          const lines = await look(1, turned);
          const reading = readDocument(lines, readOptions);
          if (reading.kind !== "not_a_document") {
            [looked, firstLines, first] = [turned, lines, reading];
          }
        }
      }
      // Pages with gaps or doubts get a second look; a page the reader says is read
      // enough, a receipt, or a page already sharpened (the second look would be the
      // same picture) does not, and neither does one whose second look would not fit in
      // the page's budget (it would cost what the first did).
      if (
        first.kind === "not_a_document" || looked.sharpened ||
        !secondLookFits(clock() - started, budgetMs) || enough(firstLines, request.today)
      ) {
        return await reread(first, firstLines, looked, started);
      }
      const sharpened = await preprocess(looked.page, {
        sharpen: true,
        removeRules: options.removeRules,
        workWidth: looked.page.width,
      });
      const second = readDocument(await look(2, sharpened), readOptions);
      return await reread(mergeReadings(first, second), firstLines, looked, started);
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      throw new ToolFailure(
        "SERVICE_UNAVAILABLE",
        "The document reader failed; please try again",
      );
    }
  }
}
