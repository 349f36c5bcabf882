/**
 * The example library pack: a whole domain in one folder, to show what
 * adding one takes (docs/how_to_add_a_domain.md). One customer agent, the
 * library desk, with its identity, intents in en/rw/fr, an offline flow
 * that calls the pack's own tool, a table (its migration is
 * `migrations/`), texts, a staff route and a schedule.
 *
 * It lives under testing/ so production never ships it: a deployment's
 * router and menu are trained on every pack in the list, and a demo desk
 * must not answer EasyMO's customers. Its tests add it with one line,
 * `[...PACKS, EXAMPLE_PACK]`, and enable it with one YAML entry
 * (`agent_configs.yaml` here) for two tenants at once.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { libraryFlow, libraryFlowMemory } from "./flow.ts";
import { LIBRARY_INTENTS } from "./intents.ts";
import { openRequestsRoute } from "./routes.ts";
import { LIBRARY_TEXTS } from "./texts.ts";
import { libraryExpireRequests, libraryOpenRequests, libraryRequestBook } from "./tools.ts";

/** The migrations folder of the pack's table. */
export const EXAMPLE_MIGRATIONS_URL = new URL("./migrations/", import.meta.url);

/** The YAML entry that enables the desk, per tenant (merged into config/agent_configs.yaml). */
export const EXAMPLE_AGENT_CONFIG_URL = new URL("./agent_configs.yaml", import.meta.url);

/** The example library pack. */
export const EXAMPLE_PACK: Pack = {
  id: "library_desk",
  tools: [libraryRequestBook, libraryOpenRequests, libraryExpireRequests],
  agents: [{
    id: "library_desk",
    name: "Library Desk",
    description: "Holds books for borrowers and tells staff what is waiting.",
    audience: "customers",
    tools: ["library_request_book", "library_open_requests", "analytics_log"],
    intents: LIBRARY_INTENTS,
    asks: (text) => /\b(library|isomero|biblioth[eè]que)\b/i.test(text),
    menuTitle: { en: "Library", rw: "Isomero", fr: "Bibliothèque" },
    offlineFlow: libraryFlow,
    memory: libraryFlowMemory,
  }],
  tables: {
    example_book_requests: { id: "uuid", title: "text", status: "text" },
  },
  texts: LIBRARY_TEXTS,
  services: [],
  routes: [openRequestsRoute],
  schedules: [{ id: "expire_stale", tool: "library_expire_requests", everyMinutes: 60 }],
};
