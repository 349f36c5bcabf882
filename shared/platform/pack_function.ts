/**
 * A domain's own edge function: one pack's HTTP surfaces at
 * `/<function name>/<path>`, as the design card's domain functions
 * (`wa-webhook-buy-sell` for buy & sell, `payments` for payments) serve them.
 * The function names its pack by id and imports no pack: the composition
 * root finds it in the pack list and mounts
 * - its staff routes (`Pack.routes`) with the same guard as the tools
 *   function's (`mountPackRoutes`): staff of a tenant that runs one of the
 *   pack's agents, tools called as them;
 * - its machine endpoints (`Pack.endpoints`: providers' signed callbacks,
 *   devices, schedulers, the operator's console; `mountPackEndpoints`).
 *
 * Deployed settings: the runtime's (`env.ts`) and nothing else.
 *
 * @module
 */
import { Hono } from "hono";
import { fail } from "@shared/contract/mod.ts";
import { contractResponse } from "@shared/http/respond.ts";
import { openRuntimeFromEnv, type Runtime } from "./env.ts";
import { mountPackEndpoints, mountPackRoutes } from "./pack_surfaces.ts";

/** Options for {@link createPackFunction}. */
export interface PackFunctionOptions {
  /** The function's name: its routes are served under `/<name>`, as Supabase calls it. */
  name: string;
  /** The id of the pack whose routes it serves. */
  pack: string;
}

/**
 * Builds a pack's function on a runtime: its routes and endpoints under
 * `/<name>`; any other path is NOT_FOUND, and an unexpected failure a logged
 * INTERNAL_ERROR.
 *
 * @throws {TypeError} when no pack has the id, or the pack declares no route or endpoint.
 */
export function createPackFunction(runtime: Runtime, options: PackFunctionOptions): Hono {
  const { platform } = runtime;
  const pack = platform.packs.find((candidate) => candidate.id === options.pack);
  if (!pack?.routes?.length && !pack?.endpoints?.length) {
    throw new TypeError(
      `Cannot serve the ${options.name} function as pack "${options.pack}" ${
        pack ? "declares no route or endpoint" : "is not in the pack list"
      }`,
    );
  }
  const app = new Hono().basePath(`/${options.name}`);
  mountPackRoutes(app, { ...runtime, only: pack.id });
  mountPackEndpoints(app, { ...runtime, pack });
  app.notFound(() => contractResponse(fail("NOT_FOUND", "No such route")));
  app.onError((error, c) => {
    platform.log.error("pack_function_failed", {
      function: options.name,
      error: String(error),
      path: c.req.path,
    });
    return contractResponse(fail("INTERNAL_ERROR"));
  });
  return app;
}

/**
 * The deployed function of a pack, from the environment (see `env.ts`).
 *
 * @throws {Error} when a variable is missing.
 * @throws {TypeError} as {@link createPackFunction}.
 */
export async function openPackFunctionFromEnv(options: PackFunctionOptions): Promise<Hono> {
  return createPackFunction(await openRuntimeFromEnv(), options);
}
