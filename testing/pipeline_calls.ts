/**
 * Helpers for testing one invoke pipeline step alone: a call as the
 * invoker would make it, a `next` that records what reached it, and a
 * tenant directory holding the seeded tenant.
 *
 * @module
 */
import { ok, type ToolResult } from "@shared/contract/mod.ts";
import type { CallerReads, Database, JwtClaims } from "@shared/db/types.ts";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { parseTenantPolicy, TenantDirectory } from "@shared/registry/tenant_policy.ts";
import { type Call, type InvokeRequest, newCall, type NextStep } from "@shared/pipeline/call.ts";
import { ORG, USER } from "./seed.ts";

/** Options for {@link callFor}. */
export interface CallForOptions extends Partial<Omit<InvokeRequest, "tool" | "caller">> {
  /** The caller's claims. @default Aline, authenticated */
  claims?: JwtClaims;
  /** The caller's org. @default ORG.easymo */
  orgId?: string | null;
  /** Fields of the call as earlier steps would have set them. */
  set?: Partial<Call>;
}

/** A call of `tool` (already looked up) with `args` as the arguments, by Aline unless told. */
export function callFor(tool: AnyTool, options: CallForOptions = {}): Call {
  const { claims, orgId, set, ...request } = options;
  const call = newCall({
    tool: tool.name,
    args: {},
    caller: {
      claims: claims ?? { sub: USER.aline, role: "authenticated" },
      org_id: orgId === undefined ? ORG.easymo : orgId,
    },
    ...request,
  }, performance.now());
  call.tool = tool;
  call.args = request.args ?? {};
  return Object.assign(call, set);
}

/** A `next` that records each call reaching it and answers `result`. */
export function answering(
  result: ToolResult | (() => ToolResult | Promise<ToolResult>) = ok({ reached: true }),
): NextStep & { calls: Call[] } {
  const calls: Call[] = [];
  const next = (call: Call) => {
    calls.push(call);
    return typeof result === "function" ? result() : result;
  };
  return Object.assign(next, { calls });
}

/** The seeded tenant (and Beaver) with `policy` as EasyMO's tool policy. */
export function tenantsWith(policy: unknown = {}): TenantDirectory {
  const tenants = new TenantDirectory();
  tenants.set({
    id: ORG.easymo,
    slug: "easymo",
    name: "EasyMO",
    policy: parseTenantPolicy(policy),
  });
  tenants.set({
    id: ORG.beaver,
    slug: "beaver-paper",
    name: "Beaver's Choice Paper Company",
    policy: parseTenantPolicy({}),
  });
  return tenants;
}

/** A tool for step tests: `{ n?: number }` in, `{ n: number }` out, no database unless told. */
export function testTool(spec: Partial<Parameters<typeof defineTool>[0]> = {}): AnyTool {
  return defineTool(
    {
      name: "test.step",
      title: "Step test",
      description: "Answers the number it was given.",
      category: "test",
      input: z.object({ n: z.number().default(1) }),
      output: z.object({ n: z.number() }),
      examples: [{ input: { n: 1 } }],
      sideEffects: "none",
      usesDatabase: false,
      execute: (args: { n: number }) => Promise.resolve({ n: args.n }),
      ...spec,
    } as Parameters<typeof defineTool>[0],
  ) as AnyTool;
}

/**
 * A database for steps whose tools read nothing: it counts the caller reads
 * opened and ended, and refuses any query (a step test that needs rows uses
 * the real database).
 */
export function unreadDatabase(): Pick<Database, "openCallerReads"> & {
  opened: number;
  ended: number;
} {
  const counts = { opened: 0, ended: 0 };
  const reads: CallerReads = {
    query: () => Promise.reject(new Error("this step test's tool reads nothing")),
    before: () => null,
    end: () => {
      counts.ended++;
      return Promise.resolve();
    },
  };
  return Object.assign(counts, {
    openCallerReads: () => {
      counts.opened++;
      return reads;
    },
  });
}
