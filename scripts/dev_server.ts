/**
 * The main job: boots the embedded database (bootstrap, migrations and seed
 * on first start) and serves every edge function at
 * `http://127.0.0.1:54321/functions/v1/<name>`, as Supabase does locally.
 * With `DATABASE_URL` set it uses that Postgres instead.
 *
 * Slow clients: each function reads its body through `shared/http/body.ts`
 * (a size limit and a 10 s deadline: 413 / 408). `Deno.serve` offers no
 * header-read timeout, so a client that never finishes its headers is not
 * cut off here; that is why the server binds 127.0.0.1 by default. Deployed,
 * Supabase's gateway fronts the functions.
 *
 * Run: `deno task dev` (see README).
 *
 * @module
 */
import { devJwtSecret, loadOrCreateDevSecret } from "@shared/runtime/secrets.ts";
import { localPaymentSecrets, localWhatsAppSecrets } from "./_local_secrets.ts";
import { notificationTransportsFromEnv } from "@shared/channels/notifications/notification_env.ts";
import { createTokenVerifier } from "@shared/auth/jwt.ts";
import { databaseUrlFromEnv } from "@shared/db/open.ts";
import { openPglite } from "@shared/db/pglite.ts";
import { openPostgres } from "@shared/db/postgres_js.ts";
import { signDevToken } from "@shared/auth/jwt.ts";
import { prepareDatabase, restartSeedClock } from "@shared/db/migrate.ts";
import type { Database } from "@shared/db/types.ts";
import { createLogger, type Logger } from "@shared/runtime/log.ts";
import { GENERATED_TOOLS_ENGINE } from "@shared/generated_tools/engine.ts";
import { createRuntime, type Runtime } from "@shared/platform/env.ts";
import { createAdminApp } from "../supabase/functions/admin-messages/app.ts";
import { createPaymentsApp } from "../supabase/functions/payments/app.ts";
import {
  PAYMENTS_CONFIG,
  type PaymentsConfig,
  paymentsConfigFromEnv,
} from "@shared/packs/payments/mod.ts";
import { createToolsApp } from "../supabase/functions/tools/app.ts";
import { createMcpApp } from "../supabase/functions/mcp/app.ts";
import { corsOriginsFromEnv } from "@shared/http/cors.ts";
import { createOcrApp } from "../supabase/functions/ocr-processor/app.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { OCR_ENGINE } from "@shared/capabilities/document_reading/ocr_engine.ts";
import { ocrEngineFromEnv } from "@shared/capabilities/document_reading/ocr_engine_from_env.ts";
import { createAgentFunction } from "@shared/platform/agent_function.ts";
import { createWebhookFunction } from "@shared/platform/wa_webhook.ts";
import { createPackFunction } from "@shared/platform/pack_function.ts";
import { dataRoot, DEFAULT_PORT, ensureDataDirs } from "./_data_root.ts";
import { registerDevForwarders } from "./_dev_forwarders.ts";
import { passwordGrant } from "./dev_auth.ts";
import { serveAdminPage } from "./dev_static.ts";
import { createSupabaseFileStore, FILE_STORE } from "@shared/storage/file_store.ts";
import { createLocalStorageServer, STORAGE_PREFIX } from "@shared/storage/local_storage_server.ts";
import { fileStoreFromEnv } from "@shared/platform/env.ts";
import { createGraphMediaSource } from "@shared/channels/whatsapp/media.ts";
import { seedListingPhotos } from "./_seed_photos.ts";
import {
  createLocalMediaServer,
  LOCAL_GRAPH_PREFIX,
} from "@shared/channels/whatsapp/local_media.ts";
import { VIDEO_PROVIDER } from "@shared/packs/video/mod.ts";
import {
  createOpenAIVideoProvider,
  videoProviderFromEnv,
} from "@shared/packs/video/openai_videos.ts";
import { startVideosServer, type VideosServer } from "@testing/videos_server.ts";

/** A function as the dev server runs it. */
export interface LocalFunction {
  /** Answers requests (paths start with `/<name>`). */
  fetch(request: Request): Response | Promise<Response>;
  /** Starts background loops. */
  start?(): void;
  /** Stops them. */
  stop?(): Promise<void>;
}

// The environment's payments settings, callbacks signed with the local secret.
function localPaymentsConfig(secret: string): PaymentsConfig {
  return { ...paymentsConfigFromEnv(), ...localPaymentSecrets(secret) };
}

/** Where the dev server is listening, once it is (a function's calls to another go there). */
export interface LocalHost {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  url(): string;
}

/** Each function, by the name Supabase serves it under. */
export const FUNCTIONS: Record<string, (runtime: Runtime, host: LocalHost) => LocalFunction> = {
  tools: (runtime) => createToolsApp({ ...runtime, renderPdf, corsOrigins: corsOriginsFromEnv() }),
  // MCP clients (the Inspector, Claude Desktop via mcp-remote) connect here; tokens from /auth/v1.
  mcp: (runtime, host) => {
    const app = createMcpApp({
      ...runtime,
      resourceUrl: () => `${host.url()}/functions/v1/mcp`,
      authorizationServer: () => `${host.url()}/auth/v1`,
      corsOrigins: corsOriginsFromEnv(),
    });
    return { fetch: app.fetch, stop: app.close };
  },
  "admin-messages": (runtime) => createAdminApp(runtime),
  "ocr-processor": (runtime) => createOcrApp(runtime),
  // Buy & sell's own function: its pack's staff routes, as deployed.
  "wa-webhook-buy-sell": (runtime) =>
    createPackFunction(runtime, { name: "wa-webhook-buy-sell", pack: "buy_and_sell" }),
  // Property's own function: listings waiting for staff approval, approve/reject.
  "agent-property-rental": (runtime) =>
    createPackFunction(runtime, { name: "agent-property-rental", pack: "property" }),
  // The webhook stores and wakes the agent function over loopback, as deployed. Each number's
  // deliveries must carry its own app's signature (the secrets its row names).
  "wa-webhook": (runtime, host) =>
    createWebhookFunction(runtime, {
      secrets: localWhatsAppSecrets(runtime.platform.secret).secrets,
      verifyToken: localWhatsAppSecrets(runtime.platform.secret).verifyToken,
      agent: {
        url: () => `${host.url()}/functions/v1/agent`,
        token: () =>
          signDevToken(devJwtSecret(runtime.platform.secret), {
            role: "service_role",
            ttlSec: 300,
          }),
      },
    }),
  // Media the simulator uploads come back through the production two-step download.
  agent: (runtime, host) =>
    createAgentFunction(runtime, {
      media: createGraphMediaSource({
        token: localWhatsAppSecrets(runtime.platform.secret).mediaToken,
        baseUrl: () => `${host.url()}${LOCAL_GRAPH_PREFIX}`,
      }),
    }),
  // Settlement callbacks signed with a secret derived from the dev secret (unless
  // MOMO_CALLBACK_SECRET is set), forwarded SMS from registered devices (on the embedded
  // database, the dev forwarders); the platform's sweep expires unpaid charges every minute.
  payments: (runtime) => createPaymentsApp(runtime),
};

/**
 * The dev server's clock: the real one, moved forward by `POST
 * /dev/v1/clock` so a demo can show what happens later (a broadcast asked for
 * 22:00 going out at 08:00) without waiting for it. Only ever forward: the
 * sweep's schedules and the idempotency ledger assume time does not go back.
 */
export interface DevClock {
  /** The dev server's time. */
  now(): Date;
  /**
   * Moves the clock to `at` (and keeps it running from there).
   * @throws {RangeError} when `at` is before the clock's time.
   */
  moveTo(at: Date): void;
}

/** A {@link DevClock} over `real` (the system clock by default). */
export function createDevClock(real: () => Date = () => new Date()): DevClock {
  let offsetMs = 0;
  const now = () => new Date(real().getTime() + offsetMs);
  return {
    now,
    moveTo(at) {
      if (at.getTime() < now().getTime()) {
        throw new RangeError(`the dev clock only moves forward (it is ${now().toISOString()})`);
      }
      offsetMs = at.getTime() - real().getTime();
    },
  };
}

/** Options for {@link startDevServer}. */
export interface DevServerOptions {
  /** @default 54321 (the `deno task dev` entry point reads `$PORT`) */
  port?: number;
  /** @default 127.0.0.1 */
  hostname?: string;
  /**
   * The data folder: dev secret, seeded users, Storage and media files.
   * @default $EASYMO_DATA_DIR, else .data/
   */
  root?: string;
  /** Embedded database folder; in memory when null. @default <root>/pglite */
  dataDir?: string | null;
  /** Postgres URL instead of the embedded database. @default $DATABASE_URL */
  databaseUrl?: string;
  /**
   * An open database to serve instead (tests hand in a seeded copy, which
   * starts faster than migrating a new one); the server closes it.
   */
  database?: Database;
  /** Logs. */
  log?: Logger;
  /** The clock the platform reads. @default a {@link createDevClock} on the system clock */
  clock?: DevClock;
}

/** A running dev server. */
export interface DevServer {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  url: string;
  /** The runtime behind the functions. */
  runtime: Runtime;
  /** Stops serving and closes the database. */
  close(): Promise<void>;
}

/** Starts the dev server. */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const log = options.log ?? createLogger();
  const root = options.root ? `${options.root.replace(/\/$/, "")}/` : dataRoot();
  const url = options.databaseUrl ?? databaseUrlFromEnv();
  const dataDir = url || options.dataDir === null || options.database
    ? undefined
    : options.dataDir ?? `${root}pglite`;
  // A fresh clone has no .data/: PGlite does not create parent folders.
  await ensureDataDirs({ root, pgliteDir: dataDir });
  // The embedded database is opened here and handed in; deployed functions only know Postgres.
  const db = options.database ?? (url ? openPostgres(url) : await openPglite({ dataDir }));
  const prepared = await prepareDatabase(db, { seed: true });
  log.info("database_ready", { kind: db.kind, ...prepared });
  const secret = Deno.env.get("EASYMO_SECRET") ??
    await loadOrCreateDevSecret(`${root}dev_secret`);
  // The dev forwarders exist only on the embedded database: a DATABASE_URL may be a real one.
  if (!url) await registerDevForwarders(db, secret);
  // The seed's drivers are available for half a day from seeding: a data folder from another day
  // would have none (the embedded database only: a DATABASE_URL may be a real one).
  if (!url) await restartSeedClock(db);
  const verify = createTokenVerifier({ hs256Secret: devJwtSecret(secret) });
  let base = "";
  // Files go to the local Storage server mounted below (same origin), through storage-js as
  // deployed, with a service-role key of the dev auth; a Supabase project when configured.
  const configuredFiles = fileStoreFromEnv();
  const files = configuredFiles ?? createSupabaseFileStore({
    url: () => base,
    key: await signDevToken(devJwtSecret(secret), {
      role: "service_role",
      ttlSec: 10 * 365 * 24 * 3600,
    }),
  });
  const storage = createLocalStorageServer({
    db,
    verify,
    root: `${root}storage/`,
    signingSecret: secret,
    log,
  });
  // The video studio: OpenAI's videos API with OPENAI_API_KEY; without one, a local server
  // that speaks the same API and renders placeholder clips, so a job runs end to end offline.
  let localVideos: VideosServer | undefined;
  let videos = videoProviderFromEnv();
  if (!videos.configured) {
    localVideos = startVideosServer({ pollsToFinish: 1 });
    videos = createOpenAIVideoProvider({
      apiKey: localVideos.apiKey,
      baseURL: localVideos.baseURL,
    });
    log.info("video_provider_local", { base_url: localVideos.baseURL, clips: "placeholder" });
  }
  const clock = options.clock ?? createDevClock();
  const embedded = !url;
  const runtime = await createRuntime({
    db,
    secret,
    log,
    verify,
    services: { now: clock.now },
    // Documents are read here with OCR_PROVIDER's engine (tesseract, offline, by default).
    provide: [
      { key: FILE_STORE, value: files },
      { key: OCR_ENGINE, value: ocrEngineFromEnv() },
      { key: PDF_RENDERER, value: renderPdf },
      { key: PAYMENTS_CONFIG, value: localPaymentsConfig(secret) },
      { key: VIDEO_PROVIDER, value: videos },
    ],
    // Real Slack/SMS when configured in the environment, else recorded locally.
    notificationTransports: notificationTransportsFromEnv({ fallback: "local", log }),
    notificationIntervalMs: 1000,
    // The platform's sweep (due pack schedules, expired idempotency keys), as pg_cron runs it.
    sweepIntervalMs: 10_000,
    // Tenants' own APIs as tools (the credential key is derived from the dev secret).
    generatedTools: GENERATED_TOOLS_ENGINE,
  });
  await writeDevUsers(runtime, root);
  const waMedia = createLocalMediaServer({
    root: `${root}wa_media/`,
    token: localWhatsAppSecrets(secret).mediaToken,
  });

  const host: LocalHost = { url: () => base };
  const apps: Record<string, LocalFunction> = Object.fromEntries(
    Object.entries(FUNCTIONS).map(([name, create]) => [name, create(runtime, host)]),
  );
  for (const app of Object.values(apps)) app.start?.();
  const server = Deno.serve({
    port: options.port ?? 54321,
    hostname: options.hostname ?? "127.0.0.1",
    onListen: () => {},
  }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/dev/v1/wa-outbox") return readOutbox(runtime, request);
    // Moving time is for the embedded database only: a DATABASE_URL may be a real one.
    if (url.pathname === "/dev/v1/clock" && embedded) return moveClock(runtime, clock, request);
    if (url.pathname === "/auth/v1/token" && request.method === "POST") {
      return passwordGrant(db, devJwtSecret(secret), request);
    }
    if (url.pathname.startsWith(`${STORAGE_PREFIX}/`)) return storage.fetch(request);
    if (url.pathname.startsWith(`${LOCAL_GRAPH_PREFIX}/`)) return waMedia.fetch(request);
    if (url.pathname === "/admin" || url.pathname.startsWith("/admin/")) {
      return serveAdminPage(request, base).then((response) =>
        response ?? Response.json({ ok: false }, { status: 404 })
      );
    }
    const match = /^\/functions\/v1\/([a-z0-9-]+)(\/.*)?$/.exec(url.pathname);
    const app = match && apps[match[1]];
    if (!app) {
      return Response.json({ ok: false, error: { code: "NOT_FOUND", msg: "Item not found" } }, {
        status: 404,
      });
    }
    // Supabase hands a function the path after /functions/v1. Copied field by field:
    // `new Request(url, request)` would follow request.signal, which Deno.serve still
    // aborts after every successful response (its "legacy abort" warning); no function
    // reads the signal, and deployed functions get Supabase's request as it is.
    url.pathname = `/${match[1]}${match[2] ?? ""}`;
    return app.fetch(
      new Request(url, { method: request.method, headers: request.headers, body: request.body }),
    );
  });
  const { hostname, port } = server.addr as Deno.NetAddr;
  base = `http://${hostname}:${port}`;
  // The seed's listing photos as files, once the local Storage answers (the embedded database
  // and the local Storage only: a DATABASE_URL or a configured Storage is a real project's).
  if (embedded && !configuredFiles) {
    log.info("seed_photos", { drawn: await seedListingPhotos(db, files) });
  }
  return {
    url: base,
    runtime,
    async close() {
      await server.shutdown();
      for (const app of Object.values(apps)) await app.stop?.();
      await runtime.platform.close();
      await localVideos?.close();
    },
  };
}

/**
 * Dev only: what the local WhatsApp adapter "sent" to a number since a time
 * (the template, when the recipient's window was closed), so the simulator
 * can show it. Needs a service-role dev token.
 */
/**
 * `POST /dev/v1/clock {"at": "2026-11-28T08:00:00+02:00"}` (service role):
 * moves the dev clock forward and runs the platform's sweep once at the new
 * time, so what fell due (a broadcast, a reminder) goes out now. `GET` reads
 * the clock.
 */
async function moveClock(runtime: Runtime, clock: DevClock, request: Request): Promise<Response> {
  const caller = await runtime.resolveCaller(request.headers.get("authorization"), null, {
    service: true,
  });
  if ("ok" in caller) return Response.json({ ok: false }, { status: 401 });
  if (request.method === "GET") {
    return Response.json({ ok: true, data: { now: clock.now().toISOString() } });
  }
  const refuse = (message: string) =>
    Response.json({
      ok: false,
      error: { code: "VALIDATION_ERROR", msg: message, fields: [{ path: "at", message }] },
    }, { status: 400 });
  const body: unknown = await request.json().catch(() => null);
  const at = typeof body === "object" && body !== null && "at" in body ? body.at : null;
  if (typeof at !== "string" || !/(Z|[+-]\d{2}:\d{2})$/.test(at) || Number.isNaN(Date.parse(at))) {
    return refuse("must be an ISO 8601 time with its offset, e.g. 2026-11-28T08:00:00+02:00");
  }
  try {
    clock.moveTo(new Date(at));
  } catch (error) {
    return refuse(error instanceof RangeError ? error.message : "cannot move the clock");
  }
  const sweep = await runtime.platform.sweep();
  return Response.json({ ok: true, data: { now: clock.now().toISOString(), sweep } });
}

async function readOutbox(runtime: Runtime, request: Request): Promise<Response> {
  const caller = await runtime.resolveCaller(request.headers.get("authorization"), null, {
    service: true,
  });
  if ("ok" in caller) return Response.json({ ok: false }, { status: 401 });
  const url = new URL(request.url);
  const to = url.searchParams.get("to") ?? "";
  const after = url.searchParams.get("after") ?? "1970-01-01T00:00:00Z";
  if (!/^\d{6,15}$/.test(to) || Number.isNaN(Date.parse(after))) {
    return Response.json(
      { ok: false, error: { code: "VALIDATION_ERROR", msg: "Invalid request" } },
      {
        status: 400,
      },
    );
  }
  const rows = await runtime.platform.db.query(
    `select w.id,
            case when w.sent_as_template then 'template' else w.kind end as kind,
            case when w.sent_as_template then w.fallback_template else w.body end as body,
            w.status, w.wamid, coalesce(o.brand_name, o.name) as sender,
            to_char(w.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
     from public.wa_outbox w join public.orgs o on o.id = w.org_id
     where w.to_wa_id = $1 and w.created_at > $2::timestamptz
     order by w.seq`,
    [to, after],
  );
  // The sender's messages still being answered (a photo being read): the simulator waits.
  const [{ working }] = await runtime.platform.db.query<{ working: number }>(
    `select count(*)::int as working from private.wa_inbound
     where from_wa_id = $1 and status in ('pending', 'processing')`,
    [to],
  );
  return Response.json({ ok: true, data: rows, working });
}

// The CLI's `token --phone` reads these to find a seeded user's id without opening the database.
async function writeDevUsers(runtime: Runtime, root: string): Promise<void> {
  const users = await runtime.platform.db.query(
    `select p.id, p.phone, p.display_name,
            coalesce(jsonb_agg(jsonb_build_object('org', o.slug, 'role', m.role))
              filter (where o.id is not null), '[]') as orgs
     from public.profiles p
     left join public.org_members m on m.user_id = p.id
     left join public.orgs o on o.id = m.org_id
     group by p.id order by p.phone`,
  );
  // `tools users` reads this to say who answers for which shop, venue and vehicle.
  const holdings = await runtime.platform.db.query(
    `select case when b.category in ('restaurant', 'cafe', 'bar') then 'venue' else 'shop' end
              as kind,
            b.name, concat_ws(', ', b.category, b.area) as detail, o.slug as org,
            coalesce('+' || b.owner_whatsapp, b.phone) as phone, b.owner_user_id
     from public.businesses b join public.orgs o on o.id = b.org_id
     where b.is_active
     union all
     select 'vehicle', d.plate, concat_ws(', ', d.vehicle_type, d.vehicle_desc), o.slug,
            d.phone, d.user_id
     from public.drivers d join public.orgs o on o.id = d.org_id
     where d.is_active
     order by 1, 2`,
  );
  await Deno.mkdir(root, { recursive: true });
  await Deno.writeTextFile(`${root}dev_users.json`, JSON.stringify(users, null, 2));
  await Deno.writeTextFile(`${root}dev_holdings.json`, JSON.stringify(holdings, null, 2));
}

if (import.meta.main) {
  const portText = Deno.env.get("PORT")?.trim() || String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65535) {
    console.error(`PORT must be a TCP port number (0-65535): ${portText}`);
    Deno.exit(2);
  }
  // On seed data, premiums go to the seeded EasyMO desk (Jean, +250788000002), so a customer
  // can pay and get a certificate; a real deployment names its own number or hands to staff.
  const insuranceDesk = !Deno.env.get("INSURANCE_MOMO_PAYEE") && !databaseUrlFromEnv();
  if (insuranceDesk) Deno.env.set("INSURANCE_MOMO_PAYEE", "+250788000002");
  const server = await startDevServer({ port }).catch((error) => {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    console.error(`Port ${port} is in use: stop the other server or set PORT to a free port`);
    Deno.exit(1);
  });
  console.log(`EasyMO dev server on ${server.url}`);
  for (const name of Object.keys(FUNCTIONS)) console.log(`  ${server.url}/functions/v1/${name}`);
  console.log(`Get a token:  deno task tools token --phone +250788000001`);
  console.log(`Chat on simulated WhatsApp:  deno task chat --phone +250788000001`);
  console.log(`Admin Inbox:  ${server.url}/admin/  (jean.staff@easymo.rw / easymo-dev)`);
  if (insuranceDesk) console.log("Insurance premiums are paid to the seeded desk +250788000002");
  const stop = async () => {
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
