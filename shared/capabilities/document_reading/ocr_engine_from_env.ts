/**
 * The OCR engine a long-running host (the dev server, the CLIs, a
 * self-hosted worker) reads documents with, chosen by the environment:
 * `OCR_PROVIDER=tesseract` (default: offline, nothing downloaded),
 * `OCR_PROVIDER=paddle` (offline, PaddleOCR through onnxruntime-node: a
 * native addon, so self-hosted only), `OCR_PROVIDER=tesseract+paddle`
 * (tesseract, and PaddleOCR's second opinion on pages it leaves incomplete;
 * self-hosted only) or `OCR_PROVIDER=openai` (needs
 * `OPENAI_API_KEY`; `OPENAI_OCR_MODEL`, `OPENAI_BASE_URL`). Deployed, the
 * ocr-processor function builds the OpenAI engine itself (its bundle carries
 * neither tesseract nor onnxruntime).
 *
 * @module
 */
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import { createOpenAIEngine } from "./openai_engine.ts";
import { createTesseractEngine } from "./tesseract_engine.ts";
import { withSecondOpinion } from "./second_opinion.ts";

/**
 * Builds the engine `OCR_PROVIDER` names.
 *
 * @throws {Error} when the provider is unknown, or `openai` without `OPENAI_API_KEY`.
 */
export function ocrEngineFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): OcrEngine {
  const provider = env.get("OCR_PROVIDER") || "tesseract";
  if (provider === "tesseract") return createTesseractEngine();
  // Loaded on the first read: a host that never reads a page never loads the native addon.
  const paddle = () =>
    loadedOnFirstRead(
      "paddle",
      async () => (await import("./paddle_engine.ts")).createPaddleEngine(),
    );
  if (provider === "paddle") return paddle();
  if (provider === "tesseract+paddle") {
    // Tesseract's first look; PaddleOCR reads again only what it leaves incomplete. Not held to
    // the page's budget (`budgetMs`): with it, stress2_dev read fewer fields than tesseract alone
    // (77.8% against 81.6%; docs/ocr_history.md, tenth round, image side).
    return withSecondOpinion(createTesseractEngine({ enough: () => true }), paddle());
  }
  if (provider === "openai") {
    const apiKey = env.get("OPENAI_API_KEY");
    if (!apiKey) throw new Error("OCR_PROVIDER=openai needs OPENAI_API_KEY");
    return createOpenAIEngine({
      apiKey,
      model: env.get("OPENAI_OCR_MODEL") || undefined,
      baseURL: env.get("OPENAI_BASE_URL") || undefined,
    });
  }
  throw new Error(
    `Set OCR_PROVIDER to tesseract, paddle, tesseract+paddle or openai (not "${provider}")`,
  );
}

function loadedOnFirstRead(provider: string, load: () => Promise<OcrEngine>): OcrEngine {
  let engine: Promise<OcrEngine> | null = null;
  return {
    provider,
    async read(request: OcrRequest) {
      engine ??= load();
      return (await engine).read(request);
    },
    async close() {
      const running = engine;
      engine = null;
      if (running) await (await running).close?.();
    },
  };
}
