/**
 * Entry point of the `tools` edge function (Supabase runtime or `deno serve`).
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/platform/env.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { createToolsApp } from "./app.ts";

// generate_pdf lays documents out here, and so does /documents/render for the agent function.
const runtime = await openRuntimeFromEnv({ provide: [{ key: PDF_RENDERER, value: renderPdf }] });
const app = createToolsApp({ ...runtime, renderPdf });

Deno.serve(app.fetch);
