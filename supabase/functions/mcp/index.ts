/**
 * Entry point of the `mcp` edge function (Supabase runtime or `deno serve`).
 *
 * @module
 */
import { openRuntimeFromEnv, requireEnv } from "@shared/platform/env.ts";
import { createMcpApp } from "./app.ts";

const runtime = await openRuntimeFromEnv();
const supabaseUrl = requireEnv("SUPABASE_URL").replace(/\/+$/, "");
const app = createMcpApp({
  ...runtime,
  resourceUrl: Deno.env.get("MCP_RESOURCE_URL") || `${supabaseUrl}/functions/v1/mcp`,
  authorizationServer: `${supabaseUrl}/auth/v1`,
});

Deno.serve(app.fetch);
