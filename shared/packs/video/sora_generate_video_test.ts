/**
 * `sora_generate_video` and `sora_video_poll` end to end, on PGlite and
 * Postgres: the real `openai` client against a loopback server that speaks
 * the videos API (`testing/videos_server.ts`), the local Storage server, the
 * WhatsApp outbox, and the platform's sweep with an injected clock.
 */
import assert from "node:assert/strict";
import { dbTest, openTestDatabase, testBackends } from "@testing/db.ts";
import { callConfirmed, createTestRuntime, type TestData } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER, VIDEO } from "@testing/seed.ts";

import { dispatchTo } from "@testing/dispatch_to.ts";
import { startTestStorage } from "@testing/storage.ts";
import { startVideosServer, type VideosServerOptions } from "@testing/videos_server.ts";
import type { Database } from "@shared/db/types.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { createOpenAIVideoProvider } from "./openai_videos.ts";
import {
  NO_VIDEO_PROVIDER,
  type ProviderVideo,
  VIDEO_PROVIDER,
  type VideoProvider,
} from "./video_provider.ts";
import { JOB_TIMEOUT_MS } from "./sora_video_poll.ts";

const MINUTE = 60_000;

/** A valid brief: an 8-second landscape ad in EasyMO's colours. */
function brief(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    prompt: {
      scene: "A moto driver in a blue EasyMO vest picks up a smiling customer at Nyabugogo.",
      cinematography: {
        camera_shot: "Slow dolly-in at eye level",
        lighting_palette: "Soft morning light with #00A1DE and #FAD201 accents",
      },
      actions: [
        { time: "0-3s", description: "She taps the EasyMO button on her phone." },
        { time: "3-8s", description: "The moto arrives; she hops on and they ride off." },
      ],
    },
    params: { model: "sora-2", size: "1280x720", seconds: 8 },
    brand_kit_id: VIDEO.brandKit,
    ...overrides,
  };
}

async function studio(
  db: Database,
  options: VideosServerOptions & { provider?: VideoProvider } = {},
) {
  let clock = Date.parse("2026-11-27T08:00:00Z");
  const server = startVideosServer(options);
  const storage = await startTestStorage(db, { now: () => new Date(clock) });
  const provider = options.provider ??
    createOpenAIVideoProvider({ apiKey: server.apiKey, baseURL: server.baseURL, timeoutMs: 5000 });
  const rt = await createTestRuntime(db, {
    now: () => new Date(clock),
    provide: [
      { key: FILE_STORE, value: storage.files },
      { key: VIDEO_PROVIDER, value: provider },
    ],
  });
  return {
    rt,
    server,
    storage,
    /** A call confirmed as the staff member would: asked, then again with the token. */
    generate(
      args: Record<string, unknown>,
      key: string = crypto.randomUUID(),
      user: string = USER.jean,
    ) {
      return callConfirmed(rt, user, "sora_generate_video", args, { key });
    },
    /** One sweep a minute later: schedules run once per minute. */
    async sweep(minutes = 1) {
      clock += minutes * MINUTE;
      return await rt.platform.sweep();
    },
    job(id: string) {
      return db.query<
        {
          status: string;
          provider_job_id: string | null;
          error: string | null;
          result_path: string | null;
        }
      >(
        "select status, provider_job_id, error, result_path from public.video_jobs where id = $1",
        [id],
      ).then((rows) => rows[0]);
    },
    outbox(id: string) {
      return db.query<{ kind: string; to_wa_id: string; body: TestData }>(
        `select kind, to_wa_id, body from public.wa_outbox
          where idempotency_key like 'video-job:' || $1 || ':%' order by created_at, id`,
        [id],
      );
    },
    async close() {
      await rt.platform.close();
      await storage.close();
      await server.close();
    },
  };
}

dbTest(
  "a staff member's video is queued, made, stored and sent to them on WhatsApp",
  async (db) => {
    const t = await studio(db, { pollsToFinish: 2 });
    try {
      const queued: TestData = await t.generate(brief());
      assert.equal(queued.ok, true, JSON.stringify(queued));
      assert.equal(queued.data.status, "queued");
      const id = queued.data.job_id;
      // Queued, not yet sent: the tool itself never calls the provider.
      assert.equal(t.server.requests.length, 0);

      await t.sweep(); // submitted
      const submitted = await t.job(id);
      assert.ok(submitted.provider_job_id, JSON.stringify(submitted));
      const create = t.server.requests[0];
      assert.equal(create.path, "/v1/videos");
      assert.equal(create.authorized, true);
      assert.equal(create.idempotencyKey, `video-job:${id}`);
      assert.equal(create.body?.model, "sora-2");
      assert.equal(create.body?.size, "1280x720");
      assert.equal(create.body?.seconds, "8");
      assert.match(String(create.body?.prompt), /Nyabugogo/);
      assert.match(String(create.body?.prompt), /Brand: EasyMO/);

      await t.sweep(); // in progress
      assert.equal((await t.job(id)).status, "processing");
      await t.sweep(); // completed: downloaded, stored, sent
      const done = await t.job(id);
      assert.equal(done.status, "complete", JSON.stringify(done));
      assert.equal(done.result_path, `${ORG.easymo}/videos/${id}.mp4`);
      const stored = await t.storage.files.download({ bucket: "media", path: done.result_path! });
      assert.deepEqual(stored.bytes, t.server.mp4);
      assert.equal(stored.contentType, "video/mp4");

      const sent = await t.outbox(id);
      assert.equal(sent.length, 1, JSON.stringify(sent));
      assert.equal(sent[0].kind, "video");
      assert.equal(sent[0].to_wa_id, "250788000002"); // Jean, who asked
      assert.match(sent[0].body.video.link, /\/storage\/v1\/object\/sign\/media\//);
      assert.match(sent[0].body.video.caption, /Your video is ready/);
      // The link serves the MP4.
      const fetched = await fetch(sent[0].body.video.link);
      assert.deepEqual(new Uint8Array(await fetched.arrayBuffer()), t.server.mp4);

      // Done is done: later sweeps neither ask the provider nor send again.
      const asked = t.server.requests.length;
      await t.sweep();
      assert.equal(t.server.requests.length, asked);
      assert.equal((await t.outbox(id)).length, 1);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a job the provider fails is marked failed, its requester told why and staff see it",
  async (db) => {
    const t = await studio(db, {
      outcome: () => ({
        kind: "fail",
        code: "moderation_blocked",
        message: "The request was blocked by moderation",
      }),
    });
    try {
      const queued: TestData = await t.generate(brief());
      const id = queued.data.job_id;
      await t.sweep();
      await t.sweep();
      await t.sweep();
      const job = await t.job(id);
      assert.equal(job.status, "failed");
      assert.match(job.error!, /blocked by moderation/);
      const sent = await t.outbox(id);
      assert.deepEqual(sent.map((row) => row.kind), ["text"]);
      assert.match(sent[0].body.text.body, /could not be made: The request was blocked/);
      // Staff see it: the job, under their own RLS, and a ticket in the Admin Inbox.
      const seen = await db.asCaller(
        { sub: USER.grace, role: "authenticated" },
        (tx) =>
          tx.query<{ status: string; tickets: number }>(
            `select j.status,
                    (select count(*)::int from public.staff_tickets s
                      where s.summary like '%' || j.id || '%') as tickets
               from public.video_jobs j where j.id = $1`,
            [id],
          ),
      );
      assert.deepEqual(seen, [{ status: "failed", tickets: 1 }]);
    } finally {
      await t.close();
    }
  },
);

dbTest("a create the provider refuses fails the job at once", async (db) => {
  const t = await studio(db, {
    createError: { status: 400, code: "invalid_prompt", message: "Prompt not allowed" },
  });
  try {
    const queued: TestData = await t.generate(brief());
    await t.sweep();
    const job = await t.job(queued.data.job_id);
    assert.equal(job.status, "failed");
    assert.match(job.error!, /Prompt not allowed \(invalid_prompt\)/);
  } finally {
    await t.close();
  }
});

dbTest(
  "a job is polled while it runs and times out with no result after 30 minutes",
  async (db) => {
    const t = await studio(db, { outcome: () => ({ kind: "stuck" }) });
    try {
      const queued: TestData = await t.generate(brief(), "stuck-job");
      const id = queued.data.job_id;
      await t.sweep();
      await t.sweep(10);
      assert.equal((await t.job(id)).status, "processing");
      await t.sweep(JOB_TIMEOUT_MS / MINUTE); // past the timeout
      const job = await t.job(id);
      assert.equal(job.status, "failed");
      assert.equal(job.error, "the provider took too long");
      const sent = await t.outbox(id);
      assert.match(sent[0].body.text.body, /the provider took too long/);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a clip the provider finished is delivered even when the sweep reads it after the timeout",
  async (db) => {
    // The sweep can lag (pg_cron down, a slow deploy): a clip made and billed is not thrown away.
    const t = await studio(db, { pollsToFinish: 1 });
    try {
      const queued: TestData = await t.generate(brief(), "late-read");
      const id = queued.data.job_id;
      await t.sweep(); // submitted
      assert.ok((await t.job(id)).provider_job_id);
      await t.sweep(JOB_TIMEOUT_MS / MINUTE + 5); // the next read comes after the timeout
      const job = await t.job(id);
      assert.equal(job.status, "complete", JSON.stringify(job));
      assert.ok(job.result_path);
      const sent = await t.outbox(id);
      assert.equal(sent.length, 1);
      assert.equal(sent[0].kind, "video");
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a job never sent to the provider fails at the timeout without a provider call",
  async (db) => {
    const t = await studio(db);
    try {
      const queued: TestData = await t.generate(brief(), "never-sent");
      const id = queued.data.job_id;
      await t.sweep(JOB_TIMEOUT_MS / MINUTE + 1); // the first sweep comes after the timeout
      const job = await t.job(id);
      assert.equal(job.status, "failed");
      assert.equal(job.error, "the provider took too long");
      assert.equal(t.server.requests.length, 0);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "every rule is refused before any provider call, naming its field",
  async (db) => {
    const t = await studio(db);
    try {
      await db.query(
        "insert into public.brand_kits (id, org_id, name, palette) values ($1, $2, 'Neon', '{#FF00FF}')",
        ["f1000000-0000-4000-8000-0000000000aa", ORG.easymo],
      );
      const withPrompt = (field: string, value: string) => {
        const args = brief();
        const prompt = structuredClone(args.prompt) as Record<string, unknown>;
        if (field === "scene") prompt.scene = value;
        if (field === "lighting_palette") {
          prompt.cinematography = { camera_shot: "Wide", lighting_palette: value };
        }
        if (field === "dialogue") prompt.dialogue = value;
        return { ...args, prompt };
      };
      const cases: Array<[string, Record<string, unknown>, string]> = [
        [
          "sora-2 at a pro size",
          brief({ params: { model: "sora-2", size: "1024x1792", seconds: 8 } }),
          "params.size",
        ],
        [
          "an unknown size",
          brief({ params: { model: "sora-2-pro", size: "1920x1080", seconds: 8 } }),
          "params.size",
        ],
        [
          "10 seconds",
          brief({ params: { model: "sora-2", size: "1280x720", seconds: 10 } }),
          "params.seconds",
        ],
        [
          "length in the scene (en)",
          withPrompt("scene", "A 10 second clip of Kimironko market"),
          "prompt.scene",
        ],
        [
          "4K in the light (fr)",
          withPrompt("lighting_palette", "Lumière dorée, tourné en 4K"),
          "prompt.cinematography.lighting_palette",
        ],
        [
          "vertical 9:16",
          withPrompt("scene", "Kigali at night, vertical 9:16 for stories"),
          "prompt.scene",
        ],
        ["length in rw", withPrompt("dialogue", "Amashusho y'amasegonda 10"), "prompt.dialogue"],
        ["1080p", withPrompt("scene", "Crisp 1080p footage of a café"), "prompt.scene"],
        [
          "another org's kit",
          brief({ brand_kit_id: "f1000000-0000-4000-8000-0000000000ff" }),
          "brand_kit_id",
        ],
        [
          "a kit off the palette",
          brief({ brand_kit_id: "f1000000-0000-4000-8000-0000000000aa" }),
          "brand_kit_id",
        ],
        [
          "a colour off the palette",
          withPrompt("lighting_palette", "Hot pink #FF1493 glow"),
          "prompt.cinematography.lighting_palette",
        ],
        [
          "people without consent",
          brief({
            reference_images: [{ path: `${ORG.easymo}/refs/model.jpg`, shows_people: true }],
          }),
          "reference_images[0].consent_ids",
        ],
        [
          "an unknown consent",
          brief({
            reference_images: [{
              path: `${ORG.easymo}/refs/model.jpg`,
              shows_people: true,
              consent_ids: ["f2000000-0000-4000-8000-0000000000ff"],
            }],
          }),
          "reference_images[0].consent_ids[0]",
        ],
        [
          "another org's image",
          brief({
            reference_images: [{ path: `${ORG.beaver}/refs/x.jpg`, shows_people: false }],
          }),
          "reference_images[0].path",
        ],
      ];
      for (const [name, args, path] of cases) {
        const result: TestData = await t.generate(args);
        assert.equal(result.ok, false, name);
        assert.equal(result.error.code, "VALIDATION_ERROR", `${name}: ${JSON.stringify(result)}`);
        assert.ok(
          result.error.fields.some((field: { path: string }) => field.path === path),
          `${name}: ${JSON.stringify(result.error.fields)}`,
        );
      }
      // The reason is said: length is a parameter.
      const stated: TestData = await t.generate(withPrompt("scene", "Une vidéo de dix secondes"));
      assert.match(stated.error.fields[0].message, /params\.seconds/);
      // Nothing was queued, so the sweep has nothing to send: the provider heard nothing.
      await t.sweep();
      assert.equal(t.server.requests.length, 0);
      const [{ jobs }] = await db.query<{ jobs: number }>(
        "select count(*)::int as jobs from public.video_jobs",
      );
      assert.equal(jobs, 0);
      // With a recorded consent, the same reference image is fine.
      const consented: TestData = await t.generate(brief({
        reference_images: [{
          path: `storage://media/${ORG.easymo}/refs/model.jpg`,
          shows_people: true,
          consent_ids: [VIDEO.consent],
        }],
      }));
      assert.equal(consented.ok, true, JSON.stringify(consented));
    } finally {
      await t.close();
    }
  },
);

dbTest("without a provider key the tool says so and makes no job", async (db) => {
  const t = await studio(db, { provider: NO_VIDEO_PROVIDER });
  try {
    const result: TestData = await t.generate(brief());
    assert.equal(result.ok, false);
    assert.equal(result.error.code, "SERVICE_UNAVAILABLE");
    assert.match(result.error.msg, /no job was made/);
    const [{ jobs }] = await db.query<{ jobs: number }>(
      "select count(*)::int as jobs from public.video_jobs",
    );
    assert.equal(jobs, 0);
  } finally {
    await t.close();
  }
});

dbTest(
  "a repeated call replays the first job; other tenants and customers make none",
  async (db) => {
    const t = await studio(db);
    try {
      const first: TestData = await t.generate(brief(), "same-key");
      const again: TestData = await t.generate(brief(), "same-key");
      assert.equal(first.ok, true);
      assert.deepEqual(again.data, first.data);
      const [{ jobs }] = await db.query<{ jobs: number }>(
        "select count(*)::int as jobs from public.video_jobs",
      );
      assert.equal(jobs, 1);

      // A customer of EasyMO is no staff member.
      const customer: TestData = await t.generate(brief(), crypto.randomUUID(), USER.aline);
      assert.equal(customer.error.code, "AUTH_ERROR");
      // Beaver's staff, in Beaver (were videos enabled for it), cannot use EasyMO's brand kit…
      await enableTools(t.rt.platform.db, t.rt.platform.tenants, ORG.beaver, [
        "sora_generate_video",
      ]);
      const beaver: TestData = await callConfirmed(
        t.rt,
        USER.paul,
        "sora_generate_video",
        brief(),
        {
          key: crypto.randomUUID(),
          org: ORG.beaver,
        },
      );
      assert.equal(beaver.error.code, "VALIDATION_ERROR");
      assert.equal(beaver.error.fields[0].path, "brand_kit_id");
      // …nor act in EasyMO, nor read its jobs.
      const intruder: TestData = await t.generate(brief(), crypto.randomUUID(), USER.paul);
      assert.equal(intruder.error.code, "AUTH_ERROR");
      const read = await db.asCaller(
        { sub: USER.paul, role: "authenticated" },
        (tx) => tx.query("select id from public.video_jobs"),
      );
      assert.deepEqual(read, []);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a finished video is remixed by a small change, with the same size and length",
  async (db) => {
    const t = await studio(db, { pollsToFinish: 1 });
    try {
      const queued: TestData = await t.generate(brief());
      const source = queued.data.job_id;
      // Not finished yet: nothing to remix, and the provider hears nothing of it.
      const early: TestData = await callConfirmed(t.rt, USER.jean, "sora_remix_video", {
        job_id: source,
        change: "Make the light warmer",
      }, { key: crypto.randomUUID() });
      assert.equal(early.error.code, "VALIDATION_ERROR");
      assert.equal(early.error.fields[0].path, "job_id");
      await t.sweep(); // submitted
      await t.sweep(); // complete and delivered
      assert.equal((await t.job(source)).status, "complete");

      // A change that states a length is refused like a brief.
      const stated: TestData = await callConfirmed(t.rt, USER.jean, "sora_remix_video", {
        job_id: source,
        change: "Make it 12 seconds long",
      }, { key: crypto.randomUUID() });
      assert.equal(stated.error.fields[0].path, "change");
      // Beaver's staff cannot remix EasyMO's video (were videos enabled for it).
      await enableTools(t.rt.platform.db, t.rt.platform.tenants, ORG.beaver, ["sora_remix_video"]);
      const beaver: TestData = await callConfirmed(t.rt, USER.paul, "sora_remix_video", {
        job_id: source,
        change: "Make the light warmer",
      }, { key: crypto.randomUUID(), org: ORG.beaver });
      assert.equal(beaver.error.fields[0].path, "job_id");

      const before = t.server.requests.length;
      const remix: TestData = await callConfirmed(t.rt, USER.jean, "sora_remix_video", {
        job_id: source,
        change: "Make the morning light warmer and have the driver wave at the end",
      }, { key: crypto.randomUUID() });
      assert.equal(remix.ok, true, JSON.stringify(remix));
      assert.equal(remix.data.remix_of, source);
      await t.sweep(); // sent as a remix of the source's provider job
      const sent = t.server.requests.slice(before);
      const sourceJob = await t.job(source);
      assert.equal(sent[0].path, `/v1/videos/${sourceJob.provider_job_id}/remix`);
      assert.match(String(sent[0].body?.prompt), /driver wave/);
      await t.sweep();
      const [job] = await db.query<{ status: string; size: string; seconds: number }>(
        "select status, size, seconds from public.video_jobs where id = $1",
        [remix.data.job_id],
      );
      assert.deepEqual(job, { status: "complete", size: "1280x720", seconds: 8 });
      assert.equal((await t.outbox(remix.data.job_id))[0].kind, "video");
    } finally {
      await t.close();
    }
  },
);

dbTest("a job whose reference image is not in Storage fails and says so", async (db) => {
  const t = await studio(db);
  try {
    const queued: TestData = await t.generate(brief({
      reference_images: [{ path: `${ORG.easymo}/refs/gone.jpg`, shows_people: false }],
    }));
    assert.equal(queued.ok, true, JSON.stringify(queued));
    await t.sweep();
    const job = await t.job(queued.data.job_id);
    assert.equal(job.status, "failed");
    assert.match(job.error!, /reference image is no longer in Storage/);
    assert.equal(t.server.requests.length, 0);
  } finally {
    await t.close();
  }
});

dbTest("a reference image in Storage is uploaded with the create", async (db) => {
  const t = await studio(db);
  try {
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    await t.storage.files.upload({
      bucket: "media",
      path: `${ORG.easymo}/refs/model.jpg`,
      bytes: photo,
      contentType: "image/jpeg",
    });
    const queued: TestData = await t.generate(brief({
      reference_images: [{
        path: `storage://media/${ORG.easymo}/refs/model.jpg`,
        shows_people: true,
        consent_ids: [VIDEO.consent],
      }],
    }));
    assert.equal(queued.ok, true, JSON.stringify(queued));
    await t.sweep();
    assert.deepEqual(t.server.requests[0].body?.input_reference, {
      file: "model.jpg",
      type: "image/jpeg",
      size: photo.byteLength,
    });
  } finally {
    await t.close();
  }
});

dbTest(
  "a paid clip is never queued without the read-back: asked once, queued once, replayed",
  async (db) => {
    const t = await studio(db, { pollsToFinish: 1 });
    const jobs = () =>
      db.query<{ n: number }>("select count(*)::int as n from public.video_jobs").then((rows) =>
        rows[0].n
      );
    try {
      const args = brief({
        params: { model: "sora-2-pro", size: "1024x1792", seconds: 12 },
        language: "fr",
      });
      const asked: TestData = await t.rt.callAs(USER.jean, "sora_generate_video", args, {
        idempotencyKey: "clip-1",
      });
      assert.equal(asked.ok, false);
      assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
      const summary: string = asked.error.confirmation.summary;
      // The read-back, in the staff member's language: model, size, length, kit and cost.
      assert.match(summary, /^Je fais cette vidéo \?/);
      assert.match(summary, /Kit de marque : EasyMO\. 1024x1792, 12 secondes \(sora-2-pro\)/);
      assert.match(summary, /environ 6\.00 \$ US/);
      // Asking queued nothing, and the provider heard nothing even after a sweep.
      await t.sweep();
      assert.equal(await jobs(), 0);
      assert.equal(t.server.requests.length, 0);

      // A token for other arguments does not pass.
      const other: TestData = await t.rt.callAs(
        USER.jean,
        "sora_generate_video",
        brief({ language: "fr" }),
        { idempotencyKey: "clip-1", confirmation: asked.error.confirmation.token },
      );
      assert.equal(other.error.code, "CONFIRMATION_REQUIRED");
      assert.equal(await jobs(), 0);

      const confirmed: TestData = await t.rt.callAs(USER.jean, "sora_generate_video", args, {
        idempotencyKey: "clip-1",
        confirmation: asked.error.confirmation.token,
      });
      assert.equal(confirmed.ok, true, JSON.stringify(confirmed));
      assert.equal(await jobs(), 1);
      // The same key and token replay the job; asking again without the token is only asked.
      const replay: TestData = await t.rt.callAs(USER.jean, "sora_generate_video", args, {
        idempotencyKey: "clip-1",
        confirmation: asked.error.confirmation.token,
      });
      assert.deepEqual(replay.data, confirmed.data);
      const unconfirmed: TestData = await t.rt.callAs(USER.jean, "sora_generate_video", args, {
        idempotencyKey: "clip-1",
      });
      assert.equal(unconfirmed.ok, false);
      assert.equal(await jobs(), 1);
      await t.sweep(); // submitted: one create at the provider
      assert.equal(t.server.requests.filter((r) => r.path === "/v1/videos").length, 1);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a brief that breaks a rule without data is refused before any read-back",
  async (db) => {
    const t = await studio(db);
    try {
      const result: TestData = await t.rt.callAs(
        USER.jean,
        "sora_generate_video",
        brief({ params: { model: "sora-2", size: "1792x1024", seconds: 4 } }),
        { idempotencyKey: "bad-size" },
      );
      assert.equal(result.error.code, "VALIDATION_ERROR");
      assert.equal(result.error.fields[0].path, "params.size");
      assert.match(result.error.fields[0].message, /not one sora-2 renders/);
      assert.equal(result.error.confirmation, undefined);
    } finally {
      await t.close();
    }
  },
);

dbTest("a remix is read back (source format, change, cost) before it is queued", async (db) => {
  const t = await studio(db, { pollsToFinish: 1 });
  try {
    const source: TestData = await t.generate(brief());
    await t.sweep();
    await t.sweep();
    const before = t.server.requests.length;
    const args = { job_id: source.data.job_id, change: "Warmer light at the end" };
    const asked: TestData = await t.rt.callAs(USER.jean, "sora_remix_video", args, {
      idempotencyKey: "remix-1",
    });
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
    assert.match(
      asked.error.confirmation.summary,
      /Remix the video \w{8}\? Change: "Warmer light at the end"\. Same format: 1280x720, 8 seconds \(sora-2\), brand kit EasyMO\. Estimated cost: about US\$0\.80/,
    );
    await t.sweep();
    assert.equal(t.server.requests.length, before);
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.video_jobs where remix_of is not null",
    );
    assert.equal(n, 0);
  } finally {
    await t.close();
  }
});

dbTest(
  "a staff member silent for a day gets the video_ready template with the brief and the link",
  async (db) => {
    const t = await studio(db, { pollsToFinish: 1 });
    try {
      const queued: TestData = await t.generate(brief({ language: "fr" }));
      await t.sweep();
      await t.sweep();
      assert.equal((await t.job(queued.data.job_id)).status, "complete");
      // Jean's last message is 25 hours old: outside the window, only a template is delivered.
      const { sent } = await dispatchTo(db, "250788000002", {
        orgId: ORG.easymo,
        wroteAgoMs: 25 * 60 * MINUTE,
      });
      const ready = sent.filter((body) => body.template?.name === "video_ready");
      assert.equal(ready.length, 1, JSON.stringify(sent));
      assert.equal(ready[0].template.language.code, "fr");
      const [brief1, link] = ready[0].template.components[0].parameters.map((
        parameter: { text: string },
      ) => parameter.text);
      assert.match(brief1, /Nyabugogo/);
      assert.match(link, /\/videos\/.*\.mp4\?token=/);
      assert.equal(sent.some((body) => body.type === "video"), false);
    } finally {
      await t.close();
    }
  },
);

dbTest("inside the window the video itself is sent, not the template", async (db) => {
  const t = await studio(db, { pollsToFinish: 1 });
  try {
    await t.generate(brief());
    await t.sweep();
    await t.sweep();
    const { sent } = await dispatchTo(db, "250788000002", {
      orgId: ORG.easymo,
      wroteAgoMs: 5 * MINUTE,
    });
    assert.deepEqual(sent.map((body) => body.type), ["video"]);
  } finally {
    await t.close();
  }
});

/**
 * The loopback provider behind a gate: its create reaches the server (the provider job
 * exists) and then answers only when the test releases it, so what the test does in between
 * happens while the poll's submission is in flight, an interleaving fixed by the test rather
 * than by timing.
 */
function gatedProvider() {
  let created!: (video: ProviderVideo) => void;
  const createdAt = new Promise<ProviderVideo>((resolve) => created = resolve);
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  let real: VideoProvider | undefined;
  const provider: VideoProvider = {
    configured: true,
    async create(input, call) {
      const video = await real!.create(input, call);
      created(video);
      await released;
      return video;
    },
    retrieve: (id, call) => real!.retrieve(id, call),
    download: (id, call) => real!.download(id, call),
    remix: (id, prompt, call) => real!.remix(id, prompt, call),
    delete: (id, call) => real!.delete(id, call),
  };
  return {
    provider,
    createdAt,
    release,
    connect(server: { apiKey: string; baseURL: string }) {
      real = createOpenAIVideoProvider({ apiKey: server.apiKey, baseURL: server.baseURL });
    },
  };
}

dbTest(
  "a cancel that lands while the create is in flight: the job ends cancelled, the provider job is deleted, nothing is delivered",
  async (db) => {
    const gate = gatedProvider();
    const t = await studio(db, { provider: gate.provider, pollsToFinish: 1 });
    gate.connect(t.server);
    const { createdAt, release } = gate;
    try {
      const queued: TestData = await t.generate(brief());
      const id = queued.data.job_id;
      const sweeping = t.sweep();
      const video = await createdAt;
      // The provider holds the job; the poll has not written it yet. Grace cancels.
      const cancelled: TestData = await t.rt.callAs(USER.grace, "video_job_cancel", {
        job_id: id,
      }, { idempotencyKey: crypto.randomUUID() });
      assert.deepEqual(cancelled.data, { job_id: id, status: "cancelled", changed: true });
      release();
      await sweeping;
      // The poll's answer did not overwrite the cancel; it kept the provider job to delete.
      const [kept] = await db.query<{ status: string; provider_job_id: string; discard: string }>(
        `select status, provider_job_id, provider_discard as discard
           from public.video_jobs where id = $1`,
        [id],
      );
      assert.deepEqual(kept, {
        status: "cancelled",
        provider_job_id: video.id,
        discard: "pending",
      });

      await t.sweep(); // the provider job is deleted
      const deletes = t.server.requests.filter((r) => r.method === "DELETE");
      assert.deepEqual(deletes.map((r) => r.path), [`/v1/videos/${video.id}`]);
      assert.equal((await t.job(id)).status, "cancelled");
      const [done] = await db.query<{ discard: string }>(
        "select provider_discard as discard from public.video_jobs where id = $1",
        [id],
      );
      assert.equal(done.discard, "done");
      // Later sweeps ask the provider nothing more; nothing was read back or delivered.
      const asked = t.server.requests.length;
      await t.sweep();
      assert.equal(t.server.requests.length, asked);
      assert.deepEqual(
        t.server.requests.filter((r) => r.method === "GET").map((r) => r.path),
        [],
      );
      assert.deepEqual(await t.outbox(id), []);
      const [{ tickets }] = await db.query<{ tickets: number }>(
        "select count(*)::int as tickets from public.staff_tickets where summary like '%' || $1 || '%'",
        [id],
      );
      assert.equal(tickets, 0);
      // A cancel after the poll wrote the submission is refused: the job is at the provider.
      const second: TestData = await t.generate(brief(), "after-submit");
      await t.sweep();
      const late: TestData = await t.rt.callAs(USER.grace, "video_job_cancel", {
        job_id: second.data.job_id,
      }, { idempotencyKey: crypto.randomUUID() });
      assert.equal(late.error?.code, "CONFLICT");
    } finally {
      await t.close();
    }
  },
);

// The cancel is held open on one connection while the poll writes on another: an interleaving
// only Postgres has (PGlite runs one transaction at a time), so it runs there only.
Deno.test({
  name: "a poll that finds the job locked by a cancel still committing waits for it and keeps " +
    "the provider job to delete [postgres]",
  ignore: !testBackends().includes("postgres"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const db = await openTestDatabase("postgres");
    const gate = gatedProvider();
    const t = await studio(db, { provider: gate.provider, pollsToFinish: 1 });
    gate.connect(t.server);
    try {
      const queued: TestData = await t.generate(brief());
      const id = queued.data.job_id;
      const sweeping = t.sweep();
      const video = await gate.createdAt;
      const lockWaits = () =>
        db.query<{ n: number }>(
          `select count(*)::int as n from pg_catalog.pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        ).then(([row]) => row.n);
      // Grace's cancel, as the Data API would make it, holds the row until the poll waits on it.
      await db.asCaller({ sub: USER.grace, role: "authenticated" }, async (tx) => {
        const rows = await tx.query(
          `update public.video_jobs set status = 'cancelled', updated_at = now()
            where id = $1 and status = 'queued' and provider_job_id is null returning id`,
          [id],
        );
        assert.equal(rows.length, 1);
        gate.release();
        // A condition, not a time: until the poll's transaction waits for this row's lock.
        for (let tries = 0; (await lockWaits()) === 0; tries++) {
          assert.ok(tries < 2000, "the poll never waited for the cancel's lock");
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
      await sweeping;
      const [kept] = await db.query<{ status: string; provider_job_id: string; discard: string }>(
        `select status, provider_job_id, provider_discard as discard
           from public.video_jobs where id = $1`,
        [id],
      );
      assert.deepEqual(kept, {
        status: "cancelled",
        provider_job_id: video.id,
        discard: "pending",
      });
    } finally {
      await t.close();
      await db.dispose();
    }
  },
});
