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
import type { Pack } from "@shared/registry/pack.ts";
import { DRIVER_COUNTERPART } from "./driver_counterpart.ts";
import { driverStatus, rideOfferRespond, rideOffersSweep } from "./driver_tools.ts";
import { mapsGeosearch } from "./geosearch.ts";
import { MOBILITY_INTENTS } from "./intents.ts";
import { PLACE_NAMES } from "./place_names.ts";
import { placeLookup } from "./places.ts";
import { rideFlow, ridePending } from "./ride_flow.ts";
import { rideCancel, rideHold, rideRequest, rideStatus } from "./rides.ts";
import { mobilitySettings } from "./settings.ts";
import { MOBILITY_TEXTS } from "./texts.ts";
import { tripPriceEstimate } from "./trip_estimate.ts";

// A bad DRIVER_AVAILABLE_MINUTES / RIDE_OFFER_MINUTES / RIDE_OFFER_DRIVERS stops the start here.
mobilitySettings();

/** The mobility pack. */
export const MOBILITY_PACK: Pack = {
  id: "mobility",
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
    intents: MOBILITY_INTENTS,
    menuTitle: { en: "Rides & moto", rw: "Ingendo na moto", fr: "Courses et moto" },
    offlineFlow: rideFlow,
    pending: ridePending,
  }],
  tables: {},
  texts: MOBILITY_TEXTS,
  services: [],
  counterparts: [DRIVER_COUNTERPART],
  sweeps: ["ride_offers_sweep"],
  checkSettings: () => void mobilitySettings(),
  places: PLACE_NAMES,
};
