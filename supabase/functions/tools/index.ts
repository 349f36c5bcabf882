/**
 * Entry point of the `tools` edge function (Supabase runtime or `deno serve`).
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/platform/env.ts";
import { createToolsApp } from "./app.ts";

const runtime = await openRuntimeFromEnv();
const app = createToolsApp(runtime);

Deno.serve(app.fetch);
