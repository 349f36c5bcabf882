/**
 * The mobility pack: the Mobility Orchestrator books motos and cabs across
 * Kigali. Tools: `maps_geosearch` (drivers, venues, pharmacies, shops near a
 * point, coarse positions), `trip_price_estimate` (versioned tariffs, Kigali
 * time bands), `place_lookup` (known places), `ride_request` / `ride_status`
 * (ask the nearest drivers, first accept wins), `ride_cancel` (the drivers
 * asked are told; the kernel offers it when a rider leaves a waiting ride), and for drivers' WhatsApp
 * answers `driver_status`, `ride_offer_respond`, plus `ride_offers_sweep`
 * (the worker's sweep). Drivers are its counterparts.
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { DRIVER_COUNTERPART } from "./driver_counterpart.ts";
import { driverStatus, rideOfferRespond, rideOffersSweep } from "./driver_tools.ts";
import { mapsGeosearch } from "./geosearch.ts";
import { MOBILITY_INTENTS } from "./intents.ts";
import { PLACE_NAMES } from "./place_names.ts";
import { placeLookup } from "./places.ts";
import { REGION_NAMES } from "./region_names.ts";
import { rideFlow, rideFlowMemory, ridePending } from "./ride_flow.ts";
import { rideCancel, rideHold, rideRequest, rideStatus } from "./rides.ts";
import { mobilitySettings } from "./settings.ts";
import { MOBILITY_TEXTS } from "./texts.ts";
import { tripPriceEstimate } from "./trip_estimate.ts";

// A bad DRIVER_AVAILABLE_MINUTES / RIDE_OFFER_MINUTES / RIDE_OFFER_DRIVERS stops the start here.
mobilitySettings();

/** The mobility pack. */
export const MOBILITY_PACK: Pack = {
  id: "mobility_orchestrator",
  tools: [
    mapsGeosearch,
    tripPriceEstimate,
    placeLookup,
    rideRequest,
    rideStatus,
    rideCancel,
    rideHold,
    driverStatus,
    rideOfferRespond,
    rideOffersSweep,
  ],
  agents: [{
    id: "mobility_orchestrator",
    name: "Mobility Orchestrator",
    description: "Finds nearby drivers and arranges rides.",
    audience: "customers",
    // "kuva Remera kugera Kicukiro": a trip between two places is a ride, whatever else it says.
    takesTrips: true,
    tools: [
      "maps_geosearch",
      "trip_price_estimate",
      "place_lookup",
      "ride_request",
      "ride_status",
      "ride_cancel",
      "ride_hold",
      "search_supabase",
      "momo_charge",
      "notify_staff",
      "analytics_log",
    ],
    intents: MOBILITY_INTENTS,
    menuTitle: { en: "Rides & moto", rw: "Ingendo na moto", fr: "Courses et moto" },
    offlineFlow: rideFlow,
    memory: rideFlowMemory,
    pending: ridePending,
  }],
  tables: {},
  texts: MOBILITY_TEXTS,
  services: [MESSAGING],
  counterparts: [DRIVER_COUNTERPART],
  sweeps: ["ride_offers_sweep"],
  checkSettings: () => void mobilitySettings(),
  places: PLACE_NAMES,
  // The rest of the country's place names: where, not what, though no ride can locate them.
  neutralNames: REGION_NAMES,
};
