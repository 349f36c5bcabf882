/**
 * `mcp_test_payout`: a tool that needs confirmation and touches no database, for the MCP
 * elicitation tests (the same tool in every MCP test file, so their confirmations read alike).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The payout tool; `paid` (when given) records each amount it paid out, in order. */
export function payoutTool(paid?: number[]) {
  return defineTool({
    name: "mcp_test_payout",
    title: "Pay out",
    description: "Pays out an amount (a confirmed tool for elicitation tests).",
    category: "testing",
    input: z.object({ amount: z.number().int().positive() }),
    output: z.object({ paid: z.number() }),
    examples: [{ input: { amount: 100 } }],
    sideEffects: "writes.test",
    confirmRequired: true,
    usesDatabase: false,
    confirmSummary: (args) => `Pay out ${args.amount} RWF`,
    execute: (args) => {
      paid?.push(args.amount);
      return Promise.resolve({ paid: args.amount });
    },
  });
}
