/**
 * Deletes files past their bucket's retention (`private.storage_retention`)
 * that nothing holds (`private.storage_holds`: files a record still names):
 * finds them in `storage.objects` and removes them through the Storage API,
 * so the bytes go with the row (Supabase refuses direct deletes from
 * `storage.objects` for that reason). Runs in the WhatsApp worker's sweep.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { FileStore } from "./file_store.ts";

/** Options for {@link sweepExpiredFiles}. */
export interface RetentionSweepOptions {
  /** The database, as the connecting role (reads `private.storage_retention`). */
  db: Queryable;
  /** Where the files are (service role). */
  files: FileStore;
  /** The most files removed per run. @default 500 */
  limit?: number;
}

/** Removes files older than their bucket keeps them; returns how many. */
export async function sweepExpiredFiles(options: RetentionSweepOptions): Promise<number> {
  const rows = await options.db.query<{ bucket_id: string; name: string }>(
    `select o.bucket_id, o.name
     from storage.objects o
     join private.storage_retention r on r.bucket_id = o.bucket_id
     where o.created_at < now() - r.keep_for
       -- A file a record still names is held: kept.
       and not exists (
         select 1 from private.storage_holds h where h.bucket_id = o.bucket_id and h.name = o.name
       )
     order by o.created_at
     limit $1`,
    [options.limit ?? 500],
  );
  const byBucket = new Map<string, string[]>();
  for (const row of rows) {
    byBucket.set(row.bucket_id, [...(byBucket.get(row.bucket_id) ?? []), row.name]);
  }
  for (const [bucket, paths] of byBucket) {
    for (let i = 0; i < paths.length; i += 100) {
      await options.files.remove({ bucket, paths: paths.slice(i, i + 100) });
    }
  }
  return rows.length;
}
