/**
 * Entry point of the `admin-messages` edge function.
 *
 * @module
 */
import { openRuntimeFromEnv } from "@shared/platform/env.ts";
import { createAdminApp } from "./app.ts";

const runtime = await openRuntimeFromEnv();
// Where the Admin Inbox page is hosted, e.g. "https://inbox.easymo.rw" (comma-separated).
const allowedOrigins = (Deno.env.get("ADMIN_INBOX_ORIGINS") ?? "").split(",")
  .map((origin) => origin.trim()).filter(Boolean);

Deno.serve(createAdminApp({ ...runtime, allowedOrigins }).fetch);
