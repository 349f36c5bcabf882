/**
 * Entry point of the `tools` edge function (Supabase runtime or `deno serve`).
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/platform/env.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { GENERATED_TOOLS_ENGINE } from "@shared/generated_tools/engine.ts";
import { corsOriginsFromEnv } from "@shared/http/cors.ts";
import { createToolsApp } from "./app.ts";

// generate_pdf lays documents out here, and so does /documents/render for the agent function.
// Tenants' APIs are registered here and their generated tools served (the parsers travel here).
const runtime = await openRuntimeFromEnv({
  provide: [{ key: PDF_RENDERER, value: renderPdf }],
  generatedTools: GENERATED_TOOLS_ENGINE,
});
const app = createToolsApp({ ...runtime, renderPdf, corsOrigins: corsOriginsFromEnv() });

Deno.serve(app.fetch);
