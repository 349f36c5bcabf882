/**
 * The `tools` function: GET lists the tools the caller's tenant (or one of
 * its agents) may use, in any export format; POST calls one through the
 * pipeline and answers with the standard contract. Identity comes from the
 * verified bearer token; the org from `x-org-id` (id or slug) when the user
 * belongs to several. Anonymous callers (the anon key) get 401 unless they
 * name a tenant that made tools public, and then see and call only those.
 *
 * `POST /tools/documents/render` lays a document out for the functions that
 * do not carry the documents stack (the agent's `remotePdfRenderer`):
 * service role only, `{content, options}` in, `application/pdf` out.
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { fail, type ToolFail, validationFailure } from "@shared/contract/mod.ts";
import { type CallerResolver, SIGN_IN_REQUIRED } from "@shared/auth/caller.ts";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportLeavingOut,
  exportTools,
} from "@shared/export/mod.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { contractResponse, readJsonBody } from "@shared/http/respond.ts";
import { browserAccess, type CorsOrigins } from "@shared/http/cors.ts";
import { type BodyLimits, refusalResponse } from "@shared/http/body.ts";
import type { Platform } from "@shared/platform/platform.ts";
import { mountPackRoutes } from "@shared/platform/pack_surfaces.ts";
import { callerTools } from "@shared/pipeline/caller_tools.ts";
import type { PdfRenderer } from "@shared/capabilities/documents/pdf_renderer.ts";
import {
  MAX_RENDER_REQUEST_BYTES,
  RenderRequest,
} from "@shared/capabilities/documents/remote_renderer.ts";

/** What the app needs. */
export interface ToolsAppOptions {
  /** The platform. */
  platform: Platform;
  /** Resolves bearer tokens to callers. */
  resolveCaller: CallerResolver;
  /** Body limits of a call. @default 256 KiB within 10 s */
  body?: Partial<BodyLimits>;
  /** Lays documents out for other functions (`/documents/render`); absent, it answers 503. */
  renderPdf?: PdfRenderer;
  /** Web origins allowed to call from a browser (`FUNCTIONS_CORS_ORIGINS`). @default none */
  corsOrigins?: CorsOrigins;
}

const CallBody = z.strictObject({
  tool: z.string().min(1).max(128),
  args: z.unknown().optional(),
  agent_id: z.string().max(64).optional(),
  convo_id: z.uuid().optional(),
  trace_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/).optional(),
  idempotency_key: z.string().max(255).optional(),
  confirmation: z.string().max(4096).optional(),
});

const ListQuery = z.object({
  format: z.enum(EXPORT_FORMATS).default("jsonschema"),
  agent: z.string().max(64).optional(),
});

/** Builds the Hono app, mounted at `/tools` as Supabase serves it. */
export function createToolsApp(options: ToolsAppOptions): Hono {
  const { platform, resolveCaller } = options;
  const app = new Hono().basePath("/tools");
  const access = browserAccess(options.corsOrigins ?? [], ["GET", "POST"]);
  if (access) app.use("*", access);

  // Exports change only when the registry does: reuse them until its version moves.
  // A tool the format cannot carry is left out of the listing, logged, instead of failing it.
  const exports = new Map<string, ReturnType<typeof exportTools>>();
  let exportsVersion = platform.registry.version;
  function exportsFor(tools: AnyTool[], format: ExportFormat) {
    if (exportsVersion !== platform.registry.version || exports.size > 200) {
      exports.clear();
      exportsVersion = platform.registry.version;
    }
    const key = `${format}:${tools.map((tool) => tool.name).join(",")}`;
    let exported = exports.get(key);
    if (!exported) {
      const listed = exportLeavingOut(tools, (some) => exportTools(some, format), {
        format,
        log: platform.log,
      });
      exports.set(key, exported = listed.result);
    }
    return exported;
  }

  app.onError((error, c) => {
    platform.log.error("tools_function_failed", { error: String(error), path: c.req.path });
    return contractResponse(fail("INTERNAL_ERROR"));
  });

  app.get("/", async (c) => {
    const caller = await resolveCaller(c.req.header("authorization"), c.req.header("x-org-id"));
    if ("ok" in caller) return authFailure(caller);
    if (!caller.org_id) return contractResponse(fail("AUTH_ERROR", "Name an org in x-org-id"));
    const query = ListQuery.safeParse(c.req.query());
    if (!query.success) return contractResponse(validationFailure(query.error));
    const { format, agent } = query.data;
    await platform.syncTools(caller.org_id);
    const visible = callerTools(platform, caller, { agent });
    if (!visible.ok) return contractResponse(visible);
    const exported = exportsFor(visible.tools, format);
    return c.json({
      ok: true,
      data: { format, count: exported.tools.length, tools: exported.tools },
    });
  });

  app.post("/", async (c) => {
    const caller = await resolveCaller(c.req.header("authorization"), c.req.header("x-org-id"));
    if ("ok" in caller) return authFailure(caller);
    const read = await readJsonBody(c.req.raw, options.body);
    if (!read.ok) return refusalResponse(read);
    const body = CallBody.safeParse(read.body);
    if (!body.success) {
      return contractResponse(
        validationFailure(body.error, "Invalid request: expected {tool, args}"),
      );
    }
    const headerKey = c.req.header("idempotency-key");
    const { idempotency_key: bodyKey, ...call } = body.data;
    if (headerKey && bodyKey && headerKey !== bodyKey) {
      return contractResponse(fail("VALIDATION_ERROR", "Two different idempotency keys given"));
    }
    const traceId = call.trace_id ?? c.req.header("x-trace-id") ?? crypto.randomUUID();
    const result = await platform.call({
      tool: call.tool,
      args: call.args ?? {},
      caller,
      context: { trace_id: traceId, agent_id: call.agent_id, convo_id: call.convo_id },
      idempotencyKey: headerKey ?? bodyKey ?? null,
      confirmation: call.confirmation ?? null,
    });
    // Anonymous callers learn nothing about tools that are not public: sign in, as for any tenant.
    if (caller.claims.role === "anon" && !result.ok && result.error.code === "AUTH_ERROR") {
      return authFailure(fail("AUTH_ERROR", SIGN_IN_REQUIRED));
    }
    return contractResponse(result, { "x-trace-id": traceId });
  });

  app.post("/documents/render", async (c) => {
    const caller = await resolveCaller(c.req.header("authorization"), undefined, {
      service: true,
    });
    if ("ok" in caller) {
      await c.req.raw.body?.cancel().catch(() => {});
      return authFailure(fail("AUTH_ERROR", SIGN_IN_REQUIRED));
    }
    const read = await readJsonBody(c.req.raw, { maxBytes: MAX_RENDER_REQUEST_BYTES });
    if (!read.ok) return refusalResponse(read);
    const request = RenderRequest.safeParse(read.body);
    if (!request.success) {
      return contractResponse(validationFailure(request.error, "Invalid document"));
    }
    if (!options.renderPdf) {
      return contractResponse(fail("SERVICE_UNAVAILABLE", "Documents are not laid out here"));
    }
    const bytes = await options.renderPdf(request.data.content, request.data.options);
    return new Response(new Uint8Array(bytes), {
      headers: { "content-type": "application/pdf", "content-length": String(bytes.length) },
    });
  });

  // The packs' staff routes (`Pack.routes`), at /tools/packs/<pack id>/<path>.
  mountPackRoutes(app, { platform, resolveCaller });

  return app;
}

// No or bad token: 401 with a challenge; a valid token for the wrong org: 403.
function authFailure(result: ToolFail): Response {
  if (result.error.msg !== SIGN_IN_REQUIRED) return contractResponse(result);
  return Response.json(result, {
    status: 401,
    headers: { "www-authenticate": 'Bearer realm="easymo"' },
  });
}
