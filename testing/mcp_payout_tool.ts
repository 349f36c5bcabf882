/**
 * `mcp_test_payout`: a tool that needs confirmation and touches no database, for the MCP
 * elicitation and task tests (the same tool in every MCP test file, so their confirmations read
 * alike); deferred, it runs as a background task.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";

/** Options for {@linkcode payoutTool}. */
export interface PayoutToolOptions {
  /** Run as a deferred MCP task (`mcp_test_deferred_payout`), polled every second. @default false */
  deferred?: boolean;
}

/** The payout tool; `paid` (when given) records each amount it paid out, in order. */
export function payoutTool(paid?: number[], options: PayoutToolOptions = {}) {
  return defineTool({
    name: options.deferred ? "mcp_test_deferred_payout" : "mcp_test_payout",
    title: options.deferred ? "Pay out later" : "Pay out",
    description: options.deferred
      ? "Pays out an amount in the background (a confirmed deferred tool for tests)."
      : "Pays out an amount (a confirmed tool for elicitation tests).",
    category: "testing",
    input: z.object({ amount: z.number().int().positive() }),
    output: z.object({ paid: z.number() }),
    examples: [{ input: { amount: 100 } }],
    sideEffects: "writes.test",
    confirmRequired: true,
    usesDatabase: false,
    ...(options.deferred ? { task: { deferred: true, pollIntervalMs: 1000 } } : {}),
    confirmSummary: (args) => `Pay out ${args.amount} RWF`,
    execute: (args) => {
      paid?.push(args.amount);
      return Promise.resolve({ paid: args.amount });
    },
  });
}
