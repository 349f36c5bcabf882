/**
 * The local Storage server on a real loopback port over a test database, and
 * supabase-js file stores pointed at it (service role or a user's token), so
 * tests exercise the production client against the Storage wire format.
 *
 * @module
 */
import { createTokenVerifier, signDevToken } from "@shared/auth/jwt.ts";
import type { Database } from "@shared/db/types.ts";
import { devJwtSecret } from "@shared/runtime/secrets.ts";
import { createSupabaseFileStore, type FileStore } from "@shared/storage/file_store.ts";
import { createLocalStorageServer } from "@shared/storage/local_storage_server.ts";
import { TEST_SECRET } from "./runtime.ts";

/** A running local Storage server. */
export interface TestStorage {
  /** Base URL (what `SUPABASE_URL` would be). */
  url: string;
  /** A file store acting with the service role. */
  files: FileStore;
  /** A file store acting as `userId` (RLS applies). */
  filesAs(userId: string): Promise<FileStore>;
  /** Folder holding the bytes. */
  root: string;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

/** Options for {@link startTestStorage}. */
export interface TestStorageOptions {
  /** Largest upload. @default the server's */
  maxUploadBytes?: number;
  /** The server's clock (signed URL expiry). */
  now?: () => Date;
}

/** Starts the local Storage server for `db` (tokens signed with the test secret). */
export async function startTestStorage(
  db: Database,
  options: TestStorageOptions = {},
): Promise<TestStorage> {
  const jwtSecret = devJwtSecret(TEST_SECRET);
  const root = await Deno.makeTempDir({ prefix: "easymo_storage_" });
  const app = createLocalStorageServer({
    db,
    verify: createTokenVerifier({ hs256Secret: jwtSecret }),
    root,
    signingSecret: TEST_SECRET,
    maxUploadBytes: options.maxUploadBytes,
    now: options.now,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const serviceKey = await signDevToken(jwtSecret, { role: "service_role", ttlSec: 3600 });
  return {
    url,
    root,
    files: createSupabaseFileStore({ url, key: serviceKey }),
    async filesAs(userId) {
      return createSupabaseFileStore({ url, key: await signDevToken(jwtSecret, { userId }) });
    },
    async close() {
      await server.shutdown();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}
