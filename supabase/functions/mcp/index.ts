/**
 * Entry point of the `mcp` edge function (Supabase runtime or `deno serve`).
 *
 * @module
 */
import { edgeBackground, openRuntimeFromEnv, requireEnv } from "@shared/platform/env.ts";
import { GENERATED_TOOLS_SYNC_ENGINE } from "@shared/generated_tools/sync_engine.ts";
import { ocrProvisionFromEnv } from "@shared/platform/ocr.ts";
import { corsOriginsFromEnv } from "@shared/http/cors.ts";
import { createMcpApp } from "./app.ts";

// Tenants' generated tools are listed and called here too (the light engine: no validator).
// ocr_extract reads pages here too (OpenAI vision, with OPENAI_API_KEY): as a task, after the answer.
const runtime = await openRuntimeFromEnv({
  generatedTools: GENERATED_TOOLS_SYNC_ENGINE,
  provide: ocrProvisionFromEnv(),
});
const supabaseUrl = requireEnv("SUPABASE_URL").replace(/\/+$/, "");
const app = createMcpApp({
  ...runtime,
  resourceUrl: Deno.env.get("MCP_RESOURCE_URL") || `${supabaseUrl}/functions/v1/mcp`,
  authorizationServer: `${supabaseUrl}/auth/v1`,
  // A deferred tool's work (reading a page) outlives the response that answered its task.
  background: edgeBackground(),
  corsOrigins: corsOriginsFromEnv(),
});

Deno.serve(app.fetch);
