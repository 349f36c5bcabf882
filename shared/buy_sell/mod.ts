/**
 * The buy & sell concierge: tools, reply parser and WhatsApp flow.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { inventoryCheck } from "./inventory.ts";
import { orderCreate } from "./orders.ts";
import { searchBusinessesWithTags } from "./search_businesses.ts";
import { logUserFeedbackOnVendor } from "./vendor_feedback.ts";
import { createVendorInquiries, getVendorInquiryUpdates } from "./vendor_inquiries.ts";
import { processVendorReply } from "./vendor_reply.ts";

export { conciergeFlow } from "./concierge_flow.ts";
export { parseVendorReply } from "./reply_parser.ts";

/** The buy & sell and commerce tools. */
export const BUY_SELL_TOOLS: readonly AnyTool[] = [
  searchBusinessesWithTags,
  createVendorInquiries,
  getVendorInquiryUpdates,
  processVendorReply,
  logUserFeedbackOnVendor,
  inventoryCheck,
  orderCreate,
];
