/**
 * Staff's side of listings: the queue of listings waiting for approval, with
 * their photos signed so staff can look at them, and approving (published)
 * or rejecting (with a reason) one. Both are staff tools (`auth: "staff"`):
 * anyone else, a landlord included, is refused before the arguments are read
 * (AUTH_ERROR), and row-level security fences the rows to the org's.
 *
 * @module
 */
import { z } from "zod";
import { id, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { member } from "./member.ts";
import { CARD_COLUMNS, listingCard, photoLinks, toCard } from "./property_search.ts";

const queued = listingCard.extend({
  status: z.enum(["draft", "pending", "published", "rejected"]),
  landlord_id: z.uuid(),
});

/** The `property_listings_queue` tool. */
export const propertyListingsQueue = defineTool({
  name: "property_listings_queue",
  title: "Listings to review",
  description: "Staff: the org's rental listings by status (pending ones wait for approval), " +
    "oldest first, with signed photo links.",
  category: "property",
  input: z.object({
    status: z.enum(["pending", "published", "rejected"]).default("pending"),
    limit: int({ min: 1, max: 50 }).default(20),
  }),
  output: z.object({ listings: z.array(queued) }),
  examples: [{ input: { status: "pending" } }],
  sideEffects: "none",
  auth: "staff",
  async execute(args, ctx) {
    const { orgId } = member(ctx);
    const rows = await ctx.db.query<
      Parameters<typeof toCard>[0] & { status: string; landlord_id: string }
    >(
      `select ${CARD_COLUMNS}, l.status, l.landlord_id from public.property_listings l
       where l.org_id = $1 and l.status = $2
       order by l.created_at, l.id limit $3`,
      [orgId, args.status, args.limit],
    );
    const listings = [];
    for (const row of rows) {
      listings.push({
        ...toCard(row, await photoLinks(ctx, row.photos)),
        status: queued.shape.status.parse(row.status),
        landlord_id: row.landlord_id,
      });
    }
    return { listings };
  },
});

/** The `property_listing_review` tool. */
export const propertyListingReview = defineTool({
  name: "property_listing_review",
  title: "Approve or reject a listing",
  description: "Staff: publish a pending rental listing, or reject it with a reason.",
  category: "property",
  input: z.object({
    listing_id: id(),
    decision: z.enum(["approve", "reject"]),
    reason: text({ min: 3, max: 300 }).optional().describe("Why, when rejecting."),
  }).refine((args) => args.decision === "approve" || args.reason !== undefined, {
    message: "must say why the listing is rejected",
    path: ["reason"],
  }),
  output: z.object({ listing_id: z.uuid(), status: z.enum(["published", "rejected"]) }),
  examples: [{
    input: { listing_id: "70000000-0000-4000-8000-000000000006", decision: "approve" },
  }],
  sideEffects: "writes.property_listing",
  auth: "staff",
  async execute(args, ctx) {
    const { orgId, userId } = member(ctx);
    const status = args.decision === "approve" ? "published" as const : "rejected" as const;
    const [row] = await ctx.db.query<{ id: string }>(
      `update public.property_listings
       set status = $3, reject_reason = $4, reviewed_by = $5, reviewed_at = now()
       where id = $1 and org_id = $2 and status = 'pending'
       returning id`,
      [args.listing_id, orgId, status, status === "rejected" ? args.reason : null, userId],
    );
    if (!row) throw new ToolFailure("NOT_FOUND", "No pending listing with that id");
    return { listing_id: row.id, status };
  },
});
