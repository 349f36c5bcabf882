/**
 * The OCR engine a long-running host (the dev server, the CLIs) reads
 * documents with, chosen by the environment: `OCR_PROVIDER=tesseract`
 * (default: offline, nothing downloaded) or `OCR_PROVIDER=openai` (needs
 * `OPENAI_API_KEY`; `OPENAI_OCR_MODEL`, `OPENAI_BASE_URL`). Deployed, the
 * ocr-processor function builds the OpenAI engine itself (its bundle carries
 * no tesseract).
 *
 * @module
 */
import type { OcrEngine } from "./ocr_engine.ts";
import { createOpenAIEngine } from "./openai_engine.ts";
import { createTesseractEngine } from "./tesseract_engine.ts";

/**
 * Builds the engine `OCR_PROVIDER` names.
 *
 * @throws {Error} when the provider is unknown, or `openai` without `OPENAI_API_KEY`.
 */
export function ocrEngineFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): OcrEngine {
  const provider = env.get("OCR_PROVIDER") || "tesseract";
  if (provider === "tesseract") return createTesseractEngine();
  if (provider === "openai") {
    const apiKey = env.get("OPENAI_API_KEY");
    if (!apiKey) throw new Error("OCR_PROVIDER=openai needs OPENAI_API_KEY");
    return createOpenAIEngine({
      apiKey,
      model: env.get("OPENAI_OCR_MODEL") || undefined,
      baseURL: env.get("OPENAI_BASE_URL") || undefined,
    });
  }
  throw new Error(`Set OCR_PROVIDER to tesseract or openai (not "${provider}")`);
}
