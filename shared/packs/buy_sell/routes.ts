/**
 * Buy & sell's staff routes, served by the `wa-webhook-buy-sell` function at
 * `/wa-webhook-buy-sell/<path>` (and, like every pack's, by the tools
 * function at `/tools/packs/buy_and_sell/<path>`). The composition root lets
 * in only staff of a tenant that runs the buy & sell agent; each route calls
 * the pack's tools as that staff member.
 *
 * - `GET /inquiries?hours=24&limit=50`: recent buyer requests and every
 *   vendor's answer (`vendor_inquiry_board`).
 *
 * @module
 */
import { httpStatus } from "@shared/contract/mod.ts";
import type { PackRoute } from "@shared/registry/pack.ts";
import { vendorInquiryBoard } from "./inquiry_board.ts";

// A query parameter as the tool reads it: digits become a number (however large, so the tool's
// range names the limit), anything else is passed on as written so the tool's VALIDATION_ERROR
// names the parameter.
function numberParam(value: string | undefined): number | string | undefined {
  return value !== undefined && /^[0-9]{1,300}$/.test(value) ? Number(value) : value;
}

/** The vendor answers board. */
export const inquiriesRoute: PackRoute = {
  method: "GET",
  path: "/inquiries",
  async handle(request) {
    const args = Object.fromEntries(
      Object.entries({
        hours: numberParam(request.query.hours),
        limit: numberParam(request.query.limit),
      }).filter(([, value]) => value !== undefined),
    );
    const result = await request.callTool(vendorInquiryBoard.name, args);
    return { status: result.ok ? 200 : httpStatus(result.error.code), body: result };
  },
};

/** Every staff route of the pack. */
export const BUY_SELL_ROUTES: readonly PackRoute[] = [inquiriesRoute];
