/**
 * Entry point of the `agent-property-rental` edge function: the property
 * pack's own home, serving its staff routes (`GET /listings?status=pending`:
 * listings waiting for approval with their photos; `POST /listings/review`:
 * approve or reject one). Renters and landlords reach the Property agent on
 * WhatsApp through the `wa-webhook` function, which Meta calls for every
 * number and tenant (docs/architecture.md says why).
 *
 * @module
 */
import { openPackFunctionFromEnv } from "@shared/platform/pack_function.ts";

const app = await openPackFunctionFromEnv({ name: "agent-property-rental", pack: "property" });

Deno.serve(app.fetch);
