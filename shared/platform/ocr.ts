/**
 * The runtime of the `ocr-processor` function: the platform with a
 * document reader provided to the packs that read documents. Deployed, it
 * reads with OpenAI vision (`OPENAI_API_KEY`, `OPENAI_OCR_MODEL`,
 * `OPENAI_BASE_URL`): tesseract's WebAssembly reads a page in more CPU time
 * than an edge function is given and loads files a bundle does not carry
 * (docs/ocr.md). The function only mounts what this returns.
 *
 * @module
 */
import { OCR_ENGINE, type OcrEngine } from "@shared/capabilities/document_reading/mod.ts";
import { createOpenAIEngine } from "@shared/capabilities/document_reading/openai_engine.ts";
import { openRuntimeFromEnv, requireEnv, type Runtime } from "./env.ts";
import type { ServiceProvision } from "./platform.ts";

/**
 * Opens the runtime with the OpenAI document reader.
 *
 * @throws {Error} when `OCR_PROVIDER` is set to anything but `openai`, or a required variable is missing.
 */
export async function openOcrRuntimeFromEnv(): Promise<Runtime> {
  const provider = Deno.env.get("OCR_PROVIDER") || "openai";
  if (provider !== "openai") {
    throw new Error(
      `OCR_PROVIDER=${provider} cannot run in a deployed ocr-processor: set OCR_PROVIDER=openai (tesseract runs in the dev server)`,
    );
  }
  return await openRuntimeFromEnv({ provide: [{ key: OCR_ENGINE, value: openAIOcrEngine() }] });
}

/**
 * The OpenAI document reader for another deployed function that reads pages
 * (the mcp function, whose `ocr_extract` tasks read in the background), when
 * `OPENAI_API_KEY` is set; without it nothing is provided and `ocr_extract`
 * there answers `SERVICE_UNAVAILABLE`, naming the ocr-processor function.
 */
export function ocrProvisionFromEnv(): ServiceProvision[] {
  return Deno.env.get("OPENAI_API_KEY") ? [{ key: OCR_ENGINE, value: openAIOcrEngine() }] : [];
}

function openAIOcrEngine(): OcrEngine {
  return createOpenAIEngine({
    apiKey: requireEnv("OPENAI_API_KEY"),
    model: Deno.env.get("OPENAI_OCR_MODEL") || undefined,
    baseURL: Deno.env.get("OPENAI_BASE_URL") || undefined,
  });
}
