/**
 * The property pack's staff routes, served by the `agent-property-rental`
 * function at `/agent-property-rental/<path>` (and, like every pack's, by the
 * tools function at `/tools/packs/property/<path>`). The composition root
 * lets in only staff of a tenant that runs the Property agent; each route
 * calls the pack's tools as that staff member.
 *
 * - `GET /listings?status=pending`: listings waiting for approval, with photos.
 * - `POST /listings/review` `{listing_id, decision: "approve" | "reject", reason?}`.
 * - `GET /viewings?listing_id=…`: upcoming viewings of the org (of one listing).
 *
 * @module
 */
import { httpStatus } from "@shared/contract/mod.ts";
import type { PackRoute } from "@shared/registry/pack.ts";
import { propertyListingReview, propertyListingsQueue } from "./listing_review.ts";
import { propertyViewings } from "./viewing_manage.ts";

/** The listings queue. */
export const listingsRoute: PackRoute = {
  method: "GET",
  path: "/listings",
  async handle(request) {
    const args = request.query.status ? { status: request.query.status } : {};
    const result = await request.callTool(propertyListingsQueue.name, args);
    return { status: result.ok ? 200 : httpStatus(result.error.code), body: result };
  },
};

/** Approving or rejecting a listing. */
export const reviewRoute: PackRoute = {
  method: "POST",
  path: "/listings/review",
  async handle(request) {
    const result = await request.callTool(propertyListingReview.name, request.body ?? {});
    return { status: result.ok ? 200 : httpStatus(result.error.code), body: result };
  },
};

/** Upcoming viewings. */
export const viewingsRoute: PackRoute = {
  method: "GET",
  path: "/viewings",
  async handle(request) {
    const args = request.query.listing_id ? { listing_id: request.query.listing_id } : {};
    const result = await request.callTool(propertyViewings.name, args);
    return { status: result.ok ? 200 : httpStatus(result.error.code), body: result };
  },
};

/** Every staff route of the pack. */
export const PROPERTY_ROUTES: readonly PackRoute[] = [listingsRoute, reviewRoute, viewingsRoute];
