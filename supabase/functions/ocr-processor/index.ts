/**
 * Entry point of the `ocr-processor` edge function (Supabase runtime or
 * `deno serve`). Deployed, it reads documents with OpenAI vision
 * (`OPENAI_API_KEY`, `OPENAI_OCR_MODEL`, `OPENAI_BASE_URL`): tesseract's
 * WebAssembly reads a page in more CPU time than an edge function is given
 * and loads its worker and trained data from files a bundle does not carry
 * (docs/ocr.md). The dev server reads with tesseract, offline.
 *
 * @module
 */
import { openRuntimeFromEnv, requireEnv } from "@shared/platform/env.ts";
import { OCR_ENGINE } from "@shared/capabilities/document_reading/mod.ts";
import { createOpenAIEngine } from "@shared/capabilities/document_reading/openai_engine.ts";
import { createOcrApp } from "./app.ts";

const provider = Deno.env.get("OCR_PROVIDER") || "openai";
if (provider !== "openai") {
  throw new Error(
    `OCR_PROVIDER=${provider} cannot run in a deployed ocr-processor: set OCR_PROVIDER=openai (tesseract runs in the dev server)`,
  );
}
const engine = createOpenAIEngine({
  apiKey: requireEnv("OPENAI_API_KEY"),
  model: Deno.env.get("OPENAI_OCR_MODEL") || undefined,
  baseURL: Deno.env.get("OPENAI_BASE_URL") || undefined,
});
const runtime = await openRuntimeFromEnv({ provide: [{ key: OCR_ENGINE, value: engine }] });
const app = createOcrApp(runtime);

Deno.serve(app.fetch);
