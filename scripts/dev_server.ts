/**
 * The main job: boots the embedded database (bootstrap, migrations and seed
 * on first start) and serves every edge function at
 * `http://127.0.0.1:54321/functions/v1/<name>`, as Supabase does locally.
 * With `DATABASE_URL` set it uses that Postgres instead.
 *
 * Run: `deno task dev` (see README).
 *
 * @module
 */
import { devJwtSecret, loadOrCreateDevSecret } from "@shared/runtime/secrets.ts";
import { createTokenVerifier } from "@shared/auth/jwt.ts";
import { openDatabase } from "@shared/db/open.ts";
import { prepareDatabase } from "@shared/db/migrate.ts";
import { createLogger, type Logger } from "@shared/runtime/log.ts";
import { createRuntime, type Runtime } from "@shared/runtime/env.ts";
import { createToolsApp } from "../supabase/functions/tools/app.ts";
import { dataRoot } from "./_data_root.ts";

/** Each function's app, by the name Supabase serves it under. */
export const FUNCTIONS: Record<
  string,
  (runtime: Runtime) => { fetch: (r: Request) => Response | Promise<Response> }
> = {
  tools: (runtime) => createToolsApp(runtime),
};

/** Options for {@link startDevServer}. */
export interface DevServerOptions {
  /** @default 54321 */
  port?: number;
  /** @default 127.0.0.1 */
  hostname?: string;
  /** Embedded database folder; in memory when null. @default <dataRoot>/pglite */
  dataDir?: string | null;
  /** Postgres URL instead of the embedded database. @default $DATABASE_URL */
  databaseUrl?: string;
  /** Logs. */
  log?: Logger;
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
  const root = dataRoot();
  const db = await openDatabase({
    url: options.databaseUrl,
    dataDir: options.dataDir === null ? undefined : options.dataDir ?? `${root}pglite`,
  });
  const prepared = await prepareDatabase(db, { seed: true });
  log.info("database_ready", { kind: db.kind, ...prepared });
  const secret = Deno.env.get("EASYMO_SECRET") ??
    await loadOrCreateDevSecret(`${root}dev_secret`);
  const runtime = await createRuntime({
    db,
    secret,
    log,
    verify: createTokenVerifier({ hs256Secret: devJwtSecret(secret) }),
  });
  await writeDevUsers(runtime, root);

  const apps = Object.fromEntries(
    Object.entries(FUNCTIONS).map(([name, create]) => [name, create(runtime)]),
  );
  const server = Deno.serve({
    port: options.port ?? 54321,
    hostname: options.hostname ?? "127.0.0.1",
    onListen: () => {},
  }, (request) => {
    const url = new URL(request.url);
    const match = /^\/functions\/v1\/([a-z0-9-]+)(\/.*)?$/.exec(url.pathname);
    const app = match && apps[match[1]];
    if (!app) {
      return Response.json({ ok: false, error: { code: "NOT_FOUND", msg: "Item not found" } }, {
        status: 404,
      });
    }
    // Supabase hands a function the path after /functions/v1.
    url.pathname = `/${match[1]}${match[2] ?? ""}`;
    return app.fetch(new Request(url, request));
  });
  const { hostname, port } = server.addr as Deno.NetAddr;
  const base = `http://${hostname}:${port}`;
  return {
    url: base,
    runtime,
    async close() {
      await server.shutdown();
      await runtime.platform.close();
    },
  };
}

// The CLI's `token --phone` reads this to find a seeded user's id without opening the database.
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
  await Deno.mkdir(root, { recursive: true });
  await Deno.writeTextFile(`${root}dev_users.json`, JSON.stringify(users, null, 2));
}

if (import.meta.main) {
  const server = await startDevServer({ port: Number(Deno.env.get("PORT") ?? 54321) });
  console.log(`EasyMO dev server on ${server.url}`);
  for (const name of Object.keys(FUNCTIONS)) console.log(`  ${server.url}/functions/v1/${name}`);
  console.log(`Get a token:  deno task tools token --phone +250788000001`);
  const stop = async () => {
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
