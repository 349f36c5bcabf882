/**
 * The property pack: the Property agent finds rentals (`property_search`),
 * offers the landlord's free viewing times and books one
 * (`schedule_viewing`), which alone reveals the exact address and contact:
 * the database shows them only to a booked viewer, the listing's landlord
 * and the org's staff (20261129000100). Either side can cancel or move a
 * viewing; the platform's sweep tells the other side, reminds both the day
 * before and sends the renter the confirmation PDF. Landlords list homes in
 * the same conversation (`property_listing_submit`); staff approve them in
 * the Admin Inbox or through the `agent-property-rental` function's routes.
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/port.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { HOST_COUNTERPART, propertyHostCancel, propertyHostMove } from "./host_counterpart.ts";
import { PROPERTY_INTENTS } from "./intents.ts";
import { propertyListingReview, propertyListingsQueue } from "./listing_review.ts";
import { propertyListingSubmit } from "./listing_submit.ts";
import { propertyFlow, propertyFlowMemory } from "./property_flow.ts";
import { viewingPending } from "./property_pending.ts";
import { propertySearch } from "./property_search.ts";
import { scheduleViewing } from "./schedule_viewing.ts";
import { PROPERTY_ROUTES } from "./routes.ts";
import { PROPERTY_TEXTS } from "./texts.ts";
import {
  propertyViewings,
  propertyViewingSlots,
  viewingCancel,
  viewingMove,
} from "./viewing_manage.ts";
import { propertyViewingsSweep } from "./viewings_sweep.ts";

/** The property pack. */
export const PROPERTY_PACK: Pack = {
  id: "property",
  tools: [
    propertySearch,
    propertyViewingSlots,
    scheduleViewing,
    viewingCancel,
    viewingMove,
    propertyViewingsSweep,
    propertyListingsQueue,
    propertyListingReview,
    propertyListingSubmit,
    propertyViewings,
    propertyHostCancel,
    propertyHostMove,
  ],
  agents: [{
    id: "property",
    name: "Property",
    description: "Finds rentals and schedules viewings.",
    audience: "customers",
    tools: [
      "property_search",
      "property_viewing_slots",
      "schedule_viewing",
      "viewing_cancel",
      "viewing_move",
      "property_viewings",
      "property_listing_submit",
      "search_supabase",
      "generate_pdf",
      "notify_staff",
      "analytics_log",
    ],
    intents: PROPERTY_INTENTS,
    menuTitle: { en: "Rent a house", rw: "Gukodesha inzu", fr: "Louer un logement" },
    offlineFlow: propertyFlow,
    memory: propertyFlowMemory,
    // Leaving with a viewing booked asks whether to cancel it (the landlord told) or keep it.
    pending: viewingPending,
  }],
  // What search_supabase may read: listings without any address (that table is never listed).
  tables: {
    property_listings: {
      id: "uuid",
      title: "text",
      price: "number",
      bedrooms: "number",
      sector: "text",
      cell: "text",
      pets_allowed: "boolean",
      parking: "boolean",
      status: "text",
    },
    property_viewings: {
      id: "uuid",
      listing_id: "uuid",
      starts_at: "timestamptz",
      status: "text",
    },
  },
  texts: PROPERTY_TEXTS,
  // Kigali's street codes ("KG 15 Ave", "KK 31 St") in an address say nothing of its language.
  neutralNames: ["KG", "KK", "KN", "Ave", "St", "Rd"],
  services: [MESSAGING, FILE_STORE],
  // Landlords and agents tapping "Move" or "Cancel viewing" on a notice of a viewing of theirs.
  counterparts: [HOST_COUNTERPART],
  // Notices of booked, moved and cancelled viewings, and reminders before them.
  sweeps: ["property_viewings_sweep"],
  // Staff review listings: served by the agent-property-rental function.
  routes: PROPERTY_ROUTES,
};
