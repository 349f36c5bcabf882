/**
 * The buy & sell pack (the tool catalog's buy & sell section): a buyer says what they want, nearby
 * vendors are asked on their behalf and their answers ranked; plus the
 * commerce tools other agents order with.
 *
 * - {@link BUY_SELL_PACK}: the pack the composition root registers.
 * - {@link conciergeFlow}: the agent's typed offline flow (memory version 1).
 * - {@link parseVendorReply}: reads a vendor's "YES 1500 2".
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { CONCIERGE_TEXTS, conciergeFlow } from "./concierge_flow.ts";
import { chooseVendorForInquiry } from "./choose_vendor.ts";
import { vendorInquiryCancel } from "./inquiry_cancel.ts";
import { buySellPending } from "./purchase_pending.ts";
import { BUY_SELL_INTENTS } from "./intents.ts";
import { inventoryCheck } from "./inventory.ts";
import { vendorInquiryBoard } from "./inquiry_board.ts";
import { BUY_SELL_ROUTES } from "./routes.ts";
import { orderCreate } from "./orders.ts";
import { searchBusinessesWithTags } from "./search_businesses.ts";
import { logUserFeedbackOnVendor } from "./vendor_feedback.ts";
import { createVendorInquiries, getVendorInquiryUpdates } from "./vendor_inquiries.ts";
import { processVendorReply } from "./vendor_reply.ts";
import { VENDOR_COUNTERPART } from "./vendor_counterpart.ts";

export { conciergeFlow, conciergeMemory } from "./concierge_flow.ts";
export { parseVendorReply } from "./reply_parser.ts";

const TEXTS = CONCIERGE_TEXTS;

const BUY_SELL_WORDS =
  /\b(buy|sell|looking for|i need|find me|gura|kugura|nshaka|ndashaka|acheter|cherche|vendre)\b/i;

/** The buy & sell pack. */
export const BUY_SELL_PACK: Pack = {
  id: "buy_and_sell",
  tools: [
    searchBusinessesWithTags,
    createVendorInquiries,
    getVendorInquiryUpdates,
    vendorInquiryCancel,
    chooseVendorForInquiry,
    processVendorReply,
    logUserFeedbackOnVendor,
    inventoryCheck,
    orderCreate,
    vendorInquiryBoard,
  ],
  agents: [{
    id: "buy_and_sell",
    name: "Buy & Sell",
    description: "Finds vendors that have what the user wants and asks them on the user's behalf.",
    audience: "customers",
    // Nobody else sells cars and motos: buying or selling one is ours, not a ride or insurance.
    takesVehicleTrade: true,
    tools: [
      "search_businesses_with_tags",
      // A known place the buyer names ("in Remera") is the search area (mobility's gazetteer).
      "place_lookup",
      "create_vendor_inquiries_and_message_vendors",
      "get_vendor_inquiry_updates",
      "vendor_inquiry_cancel",
      "choose_vendor_for_inquiry",
      "log_user_feedback_on_vendor",
      "inventory_check",
      "order_create",
      "momo_charge",
      // What leaving reads and cancels (purchase_pending.ts): the order, the payment.
      "search_supabase",
      "order_cancel",
      "payment_status",
      "momo_charge_cancel",
      "ocr_extract",
      "notify_staff",
      "analytics_log",
    ],
    intents: BUY_SELL_INTENTS,
    asks: (text) => BUY_SELL_WORDS.test(text),
    // Whatever names no other topic is most likely something to find.
    role: "fallback",
    menuTitle: { en: "Buy & sell", rw: "Kugura no kugurisha", fr: "Acheter et vendre" },
    // Offline (no model, or it failed this turn), the concierge answers: same tools, and the
    // agent's own Confirm / Cancel before an order or a payment.
    ...conciergeFlow,
    // The chosen vendor's unpaid order or waiting payment, else a request the vendors are still
    // being asked about: cancelled (the vendor told) or kept on leaving.
    pending: buySellPending,
  }],
  tables: {
    businesses: {
      id: "uuid",
      name: "text",
      category: "text",
      tags: "text[]",
      address: "text",
      area: "text",
      lat: "number",
      lng: "number",
      phone: "text",
      is_active: "boolean",
    },
    products: {
      id: "uuid",
      business_id: "uuid",
      sku: "text",
      name: "text",
      price: "number",
      currency: "text",
      qty: "number",
      unit: "text",
      is_available: "boolean",
    },
  },
  texts: TEXTS,
  services: [MESSAGING],
  counterparts: [VENDOR_COUNTERPART],
  // Staff's view of the vendors' answers, served by the wa-webhook-buy-sell function.
  routes: BUY_SELL_ROUTES,
};
