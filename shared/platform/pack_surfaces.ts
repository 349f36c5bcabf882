/**
 * What packs declare beyond tools and agents, wired by the root: their staff
 * HTTP routes (`Pack.routes`, mounted on the tools function under
 * `/tools/packs/<pack id>/<path>`) and the start-time check of their routes
 * and schedules (`Pack.schedules`, run by `runPackSchedules` from the
 * platform's sweep, `shared/pipeline/platform_sweep.ts`).
 * Both act only for tenants whose entry in `config/agent_configs.yaml` runs
 * one of the pack's agents, and both go through the tool pipeline, so
 * tenancy, allowlists, rate limits and traces hold as for any call.
 *
 * @module
 */
import type { Context, Hono } from "hono";
import { fail, type ToolFail } from "@shared/contract/mod.ts";
import {
  type Caller,
  type CallerResolver,
  SIGN_IN_REQUIRED,
  STAFF_ROLES,
} from "@shared/auth/caller.ts";
import { contractResponse, readJsonBody } from "@shared/http/respond.ts";
import { readBody, refusalResponse } from "@shared/http/body.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { EndpointCaller, Pack, PackEndpoint, PackRoute } from "@shared/registry/pack.ts";
import { tenantsRunning } from "@shared/pipeline/pack_schedules.ts";

export { runPackSchedules, type ScheduleRun } from "@shared/pipeline/pack_schedules.ts";

/**
 * Checks the packs' schedules and routes at start.
 *
 * @throws {TypeError} naming the pack and the schedule or route at fault.
 */
export function checkPackSurfaces(packs: readonly Pack[], knownTools: Iterable<string>): void {
  const known = new Set(knownTools);
  for (const pack of packs) {
    for (const schedule of pack.schedules ?? []) {
      const every = schedule.everyMinutes;
      if (!Number.isInteger(every) || every < 1 || every > 1_440) {
        throw new TypeError(
          `Cannot start pack "${pack.id}" as schedule "${schedule.id}" must run every 1 to ` +
            `1440 whole minutes: current value is ${every}`,
        );
      }
      if ((schedule.tool === undefined) === (schedule.run === undefined)) {
        throw new TypeError(
          `Cannot start pack "${pack.id}" as schedule "${schedule.id}" must have exactly one ` +
            "of a tool and a run",
        );
      }
      if (schedule.tool !== undefined && !known.has(schedule.tool)) {
        throw new TypeError(
          `Cannot start pack "${pack.id}" as schedule "${schedule.id}" names unknown tool ` +
            `"${schedule.tool}"`,
        );
      }
    }
    const seen = new Set<string>();
    for (const route of pack.routes ?? []) {
      const key = `${route.method} ${route.path}`;
      if (!/^\/[a-z0-9_/-]*$/.test(route.path) || seen.has(key)) {
        throw new TypeError(
          `Cannot start pack "${pack.id}" as route "${key}" is repeated or its path is not ` +
            "lowercase segments starting with /",
        );
      }
      seen.add(key);
    }
    const endpoints = new Set<string>();
    for (const endpoint of pack.endpoints ?? []) {
      const key = `${endpoint.method} ${endpoint.path}`;
      const sizeOk = Number.isInteger(endpoint.maxBytes) && endpoint.maxBytes > 0 &&
        endpoint.maxBytes <= 1024 * 1024;
      if (!/^(\/(:?[a-z0-9_-]+))+$/.test(endpoint.path) || endpoints.has(key) || !sizeOk) {
        throw new TypeError(
          `Cannot start pack "${pack.id}" as endpoint "${key}" is repeated, its path is not ` +
            "lowercase segments (or :parameters) starting with /, or its maxBytes is not 1 to " +
            `1048576: current value is ${endpoint.maxBytes}`,
        );
      }
      endpoints.add(key);
    }
  }
}

/** Options for {@link mountPackRoutes}. */
export interface MountPackRoutesOptions {
  /** The platform. */
  platform: Platform;
  /** Resolves bearer tokens to callers. */
  resolveCaller: CallerResolver;
  /**
   * Mounts only this pack's routes, each at its own path (`/<path>`): a
   * domain's own function serves its pack so. @default every pack's, each at
   * `/packs/<pack id>/<path>`
   */
  only?: string;
}

/**
 * Mounts every pack's staff routes on `app` at `/packs/<pack id>/<path>`
 * (or one pack's at `/<path>`, {@link MountPackRoutesOptions.only}).
 * The caller must be staff (or admin) of the org named by `x-org-id` (or
 * their only org), and that org must run one of the pack's agents: other
 * tenants get NOT_FOUND, as if the route did not exist.
 */
export function mountPackRoutes(app: Hono, options: MountPackRoutesOptions): void {
  const { platform, resolveCaller, only } = options;
  for (const pack of platform.packs) {
    if (only !== undefined && pack.id !== only) continue;
    for (const route of pack.routes ?? []) {
      const path = only !== undefined ? route.path : `/packs/${pack.id}${route.path}`;
      const handler = (c: Context) => serve(pack, route, c.req.raw, c.req.query());
      if (route.method === "GET") app.get(path, handler);
      else app.post(path, handler);
    }
  }

  async function serve(
    pack: Pack,
    route: PackRoute,
    request: Request,
    query: Record<string, string>,
  ): Promise<Response> {
    const resolved = await resolveCaller(
      request.headers.get("authorization") ?? undefined,
      request.headers.get("x-org-id") ?? undefined,
      { roles: STAFF_ROLES, refusal: "Staff access only" },
    );
    if ("ok" in resolved) {
      // No or bad token: 401 with a challenge, as every function answers; a valid one: 403.
      if (resolved.error.msg !== SIGN_IN_REQUIRED) return contractResponse(resolved);
      return Response.json(resolved, { status: 401, headers: { "www-authenticate": "Bearer" } });
    }
    const caller: Caller = resolved;
    const tenant = caller.org_id ? platform.tenants.get(caller.org_id)?.slug : undefined;
    if (!tenant || !tenantsRunning(platform, pack).includes(tenant)) {
      return contractResponse(fail("NOT_FOUND", "No such route for this organisation"));
    }
    let body: unknown;
    if (route.method === "POST") {
      // Streamed and counted like every function's body: an oversized or slow one is refused.
      const read = await readJsonBody(request);
      if (!read.ok) return refusalResponse(read);
      body = read.body;
    }
    const answer = await route.handle({
      query,
      body,
      tenant,
      callTool: (tool, args) =>
        platform.call({
          tool,
          args,
          caller,
          // A POST's write replays under its Idempotency-Key, as every tool call does.
          idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
          context: { trace_id: `route:${pack.id}${route.path}:${crypto.randomUUID()}` },
        }),
    });
    return Response.json(answer.body, { status: answer.status });
  }
}

/** Options for {@link mountPackEndpoints}. */
export interface MountPackEndpointsOptions {
  /** The platform. */
  platform: Platform;
  /** Resolves bearer tokens to callers. */
  resolveCaller: CallerResolver;
  /** The pack whose endpoints are mounted, each at `/<path>`. */
  pack: Pack;
}

/**
 * Mounts a pack's machine endpoints (`Pack.endpoints`) on `app`. The body is
 * read within the endpoint's limit before anything else; `service` endpoints
 * take only the service-role token and `caller` ones any signed-in caller
 * (no token: 401 with a challenge); `signed` ones prove their sender
 * themselves. A handler's answer is sent as it is.
 */
export function mountPackEndpoints(app: Hono, options: MountPackEndpointsOptions): void {
  const { platform, resolveCaller, pack } = options;
  for (const endpoint of pack.endpoints ?? []) {
    const handler = (c: Context) =>
      serve(endpoint, c.req.raw, c.req.query(), c.req.param() as Record<string, string>);
    if (endpoint.method === "GET") app.get(endpoint.path, handler);
    else app.post(endpoint.path, handler);
  }

  function signInRequired(): Response {
    return Response.json(fail("AUTH_ERROR", SIGN_IN_REQUIRED), {
      status: 401,
      headers: { "www-authenticate": "Bearer" },
    });
  }

  async function serve(
    endpoint: PackEndpoint,
    request: Request,
    query: Record<string, string>,
    params: Record<string, string>,
  ): Promise<Response> {
    const authorization = request.headers.get("authorization") ?? undefined;
    if (endpoint.auth !== "signed") {
      const resolved = await resolveCaller(
        authorization,
        undefined,
        endpoint.auth === "service" ? { service: true } : undefined,
      );
      if ("ok" in resolved) {
        await request.body?.cancel().catch(() => {});
        return signInRequired();
      }
    }
    const read = endpoint.method === "POST"
      ? await readBody(request, { maxBytes: endpoint.maxBytes })
      : { ok: true as const, bytes: new Uint8Array() };
    if (!read.ok) return refusalResponse(read);
    const answer = await endpoint.handle({
      bytes: read.bytes,
      headers: request.headers,
      query,
      params,
      async callerIn(org): Promise<EndpointCaller | ToolFail> {
        const resolved = await resolveCaller(authorization, org);
        return "ok" in resolved ? resolved : { claims: resolved.claims, orgId: resolved.org_id };
      },
      db: platform.db,
      callAsService: (tool, args, { orgId, idempotencyKey }) =>
        platform.call({
          tool,
          args,
          caller: { claims: { role: "service_role" }, org_id: orgId },
          idempotencyKey: idempotencyKey.slice(0, 255),
        }),
      services: platform.services,
      log: platform.log,
    });
    return Response.json(answer.body, { status: answer.status });
  }
}
