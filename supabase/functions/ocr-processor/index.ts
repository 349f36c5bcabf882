/**
 * Entry point of the `ocr-processor` edge function (Supabase runtime or
 * `deno serve`): mounts the OCR app on the runtime the composition root
 * opens with its document reader (`shared/platform/ocr.ts`, which names the
 * variables it reads). The dev server reads with tesseract, offline.
 *
 * @module
 */
import { openOcrRuntimeFromEnv } from "@shared/platform/ocr.ts";
import { createOcrApp } from "./app.ts";

const app = createOcrApp(await openOcrRuntimeFromEnv());

Deno.serve(app.fetch);
