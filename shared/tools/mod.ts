/**
 * The first-party tools, registered globally at start.
 *
 * @module
 */
import { BUY_SELL_TOOLS } from "@shared/buy_sell/mod.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { analyticsLog } from "./analytics_log.ts";
import { notifyStaff } from "./notify_staff.ts";
import { searchSupabase } from "./search_supabase.ts";

export { analyticsLog, notifyStaff, searchSupabase };

/** Every implemented first-party tool. */
export const CORE_TOOLS: readonly AnyTool[] = [
  notifyStaff,
  searchSupabase,
  analyticsLog,
  ...BUY_SELL_TOOLS,
];
