/**
 * `broadcast_templates`: the org's templates staff may broadcast now (Meta
 * approved), with their language and variables, for the Marketing & Sales
 * flow to offer. Staff only, read under RLS.
 *
 * @module
 */
import { z } from "zod";
import { LANGUAGES } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const output = z.object({
  templates: z.array(z.object({
    id: z.uuid(),
    name: z.string(),
    language: z.enum(LANGUAGES),
    variables: z.array(z.string()).describe("Its variables' names, in order."),
    body: z.string(),
  })),
});

/** The `broadcast_templates` tool. */
export const broadcastTemplates = defineTool({
  name: "broadcast_templates",
  title: "List approved broadcast templates",
  description: "Staff only: the org's WhatsApp templates Meta approved, with their language and " +
    "the names of their variables, which broadcast_schedule can send.",
  category: "marketing",
  input: z.object({}),
  output,
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "staff",
  latencyBudgetMs: 200,
  async execute(_args, ctx) {
    const orgId = ctx.org_id!;
    const templates = await ctx.db.query<z.input<typeof output>["templates"][number]>(
      `select id, name, language, variables, body from public.broadcast_templates
       where org_id = $1 and meta_status = 'approved' order by name, language limit 50`,
      [orgId],
    );
    return { templates };
  },
});
