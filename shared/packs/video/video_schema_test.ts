/**
 * The video studio's tables (migration 20261129000400_video_studio.sql), on
 * PGlite and Postgres: staff of the org only, the model's sizes as a
 * constraint, and job status written by the service alone.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER, VIDEO } from "@testing/seed.ts";
import type { JwtClaims } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

const INSERT_JOB = `insert into public.video_jobs
  (org_id, requester_id, model, size, seconds, prompt, prompt_text, brand_kit_id)
  values ($1, $2, $3, $4, 8, '{}', 'A moto crosses Kigali at dawn', $5) returning id`;

dbTest(
  "staff read their org's kits and jobs; customers and other tenants read none",
  async (db) => {
    const [job] = await db.asCaller(
      as(USER.jean),
      (tx) =>
        tx.query<{ id: string }>(INSERT_JOB, [
          ORG.easymo,
          USER.jean,
          "sora-2",
          "1280x720",
          VIDEO.brandKit,
        ]),
    );
    assert.ok(job.id);
    const read = (user: string) =>
      db.asCaller(as(user), async (tx) => ({
        kits: (await tx.query("select id from public.brand_kits")).length,
        jobs: (await tx.query("select id from public.video_jobs")).length,
        consents: (await tx.query("select id from public.video_consents")).length,
      }));
    assert.deepEqual(await read(USER.jean), { kits: 1, jobs: 1, consents: 1 });
    // A customer of the same org, and Beaver's staff, see nothing.
    assert.deepEqual(await read(USER.aline), { kits: 0, jobs: 0, consents: 0 });
    assert.deepEqual(await read(USER.paul), { kits: 0, jobs: 0, consents: 0 });
    // Nor can they write into EasyMO's studio.
    assert.equal(
      await sqlState(
        db.asCaller(
          as(USER.aline),
          (tx) =>
            tx.query(INSERT_JOB, [ORG.easymo, USER.aline, "sora-2", "1280x720", VIDEO.brandKit]),
        ),
      ),
      "42501",
    );
    assert.equal(
      await sqlState(db.asCaller(as(USER.paul), (tx) =>
        tx.query(
          "insert into public.brand_kits (org_id, name, palette) values ($1, 'Stolen', '{#FFFFFF}')",
          [ORG.easymo],
        ))),
      "42501",
    );
    // Staff cannot mark their own job complete: status is the background poll's.
    assert.equal(
      await sqlState(
        db.asCaller(
          as(USER.jean),
          (tx) =>
            tx.query("update public.video_jobs set status = 'failed', error = 'x' where id = $1", [
              job.id,
            ]),
        ),
      ),
      "42501",
    );
  },
);

dbTest("a job's size must be one its model renders, whoever writes it", async (db) => {
  const insert = (model: string, size: string) =>
    sqlState(db.query(INSERT_JOB, [ORG.easymo, USER.jean, model, size, VIDEO.brandKit]));
  assert.equal(await insert("sora-2", "720x1280"), "ok");
  assert.equal(await insert("sora-2", "1024x1792"), "23514");
  assert.equal(await insert("sora-2-pro", "1792x1024"), "ok");
  assert.equal(await insert("sora-2-pro", "1920x1080"), "23514");
  // A job's brand kit is its own org's.
  const [beaverKit] = await db.query<{ id: string }>(
    "insert into public.brand_kits (org_id, name, palette) values ($1, 'Beaver', '{#FFFFFF}') returning id",
    [ORG.beaver],
  );
  assert.equal(
    await sqlState(
      db.query(INSERT_JOB, [ORG.easymo, USER.jean, "sora-2", "1280x720", beaverKit.id]),
    ),
    "23503",
  );
});
