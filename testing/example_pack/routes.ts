/**
 * The library desk's staff route: `GET /tools/packs/library_desk/requests`
 * lists the open requests of the staff member's org.
 *
 * @module
 */
import { httpStatus } from "@shared/contract/mod.ts";
import type { PackRoute } from "@shared/registry/pack.ts";

/** The staff route listing open requests. */
export const openRequestsRoute: PackRoute = {
  method: "GET",
  path: "/requests",
  async handle(request) {
    const result = await request.callTool("library_open_requests", {});
    return { status: result.ok ? 200 : httpStatus(result.error.code), body: result };
  },
};
