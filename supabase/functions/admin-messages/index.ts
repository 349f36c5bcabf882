/**
 * Entry point of the `admin-messages` edge function.
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/runtime/env.ts";
import { createAdminApp } from "./app.ts";

const runtime = await openRuntimeFromEnv();

Deno.serve(createAdminApp(runtime).fetch);
