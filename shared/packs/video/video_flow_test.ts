/**
 * The studio's offline flow, driven turn by turn as the staff channel will
 * drive it, with its tools called through the real platform (PGlite and
 * Postgres), the loopback videos server behind the poll.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { startVideosServer } from "@testing/videos_server.ts";
import type { Language } from "@shared/contract/language.ts";
import type { Database } from "@shared/db/types.ts";
import type { OfflineStep, OfflineTurn, PendingCall, TurnInput } from "@shared/registry/pack.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { createOpenAIVideoProvider } from "./openai_videos.ts";
import { NO_VIDEO_PROVIDER, VIDEO_PROVIDER, type VideoProvider } from "./video_provider.ts";
import { videoFlow } from "./video_flow.ts";
import { say } from "./texts.ts";

async function staffChat(db: Database, options: { provider?: "loopback" | "none" } = {}) {
  let clock = Date.parse("2026-11-27T08:00:00Z");
  const server = startVideosServer({ pollsToFinish: 1 });
  const storage = await startTestStorage(db, { now: () => new Date(clock) });
  const provider: VideoProvider = options.provider === "none"
    ? NO_VIDEO_PROVIDER
    : createOpenAIVideoProvider({ apiKey: server.apiKey, baseURL: server.baseURL });
  const rt = await createTestRuntime(db, {
    now: () => new Date(clock),
    provide: [{ key: FILE_STORE, value: storage.files }, { key: VIDEO_PROVIDER, value: provider }],
  });
  let memory: Record<string, unknown> = {};
  let turnNo = 0;
  let pending: PendingCall | undefined;
  const call = (user: string, tool: string, args: unknown, key: string, confirmation?: string) =>
    rt.platform.call({
      tool,
      args,
      caller: { claims: { sub: user, role: "authenticated" }, org_id: ORG.easymo },
      context: { agent_id: "sora_video" },
      idempotencyKey: key,
      confirmation,
    });
  const run = async (input: TurnInput, user: string, language: Language) => {
    const turn: OfflineTurn = {
      agent: "sora_video",
      language,
      input,
      memory,
      menu: [],
      progress: () => Promise.resolve(),
    };
    const step = await videoFlow.offlineFlow(
      turn,
      (tool, args, name) => call(user, tool, args, `${input.wamid}:${name}`),
    );
    memory = { ...memory, ...step.memory };
    pending = step.pending;
    return step;
  };
  return {
    rt,
    server,
    /** One message from `user`, through the flow; its memory is kept as the graph keeps it. */
    say(
      input: Partial<TurnInput>,
      user: string = USER.jean,
      language: Language = "en",
    ): Promise<OfflineStep> {
      turnNo += 1;
      return run({ wamid: `wamid.video.${turnNo}`, text: "", ...input }, user, language);
    },
    /**
     * The answer to a pending read-back, settled as the staff desk settles it: on "confirm" a
     * fresh token for the same call and key, then the call; the result goes to the flow.
     */
    async answer(
      decision: "confirm" | "cancel",
      user: string = USER.jean,
      language: Language = "en",
    ): Promise<OfflineStep> {
      assert.ok(pending, "no read-back is pending");
      const { tool, args, key } = pending;
      let result: unknown = { ok: false, error: { code: "CANCELLED", msg: "Cancelled" } };
      if (decision === "confirm") {
        const asked = await call(user, tool, args, key);
        const token = !asked.ok ? asked.error.confirmation?.token : undefined;
        result = token ? await call(user, tool, args, key, token) : asked;
      }
      memory = { ...memory, lastResult: result, lastTool: tool };
      turnNo += 1;
      return await run({ wamid: `wamid.video.${turnNo}`, text: "" }, user, language);
    },
    async sweep() {
      clock += 60_000;
      await rt.platform.sweep();
    },
    async close() {
      await rt.platform.close();
      await storage.close();
      await server.close();
    },
  };
}

const BRIEF = "A moto driver picks up a smiling customer at Nyabugogo in the morning rush.";

dbTest(
  "a staff member briefs, picks kit, format and length, confirms, and gets the video",
  async (db) => {
    const chat = await staffChat(db);
    try {
      const hello = await chat.say({ text: "video" });
      assert.equal(hello.replies?.[0].text, say("askBrief", "en"));

      const kits = await chat.say({ text: BRIEF });
      assert.equal(kits.replies?.[0].text, say("askKit", "en"));
      const kit = kits.replies![0].rows![0];
      assert.equal(kit.title, "EasyMO");

      const size = await chat.say({ text: kit.title, choice: kit.id });
      assert.deepEqual(size.replies?.[0].buttons?.map((b) => b.id), [
        "size:1280x720",
        "size:720x1280",
      ]);
      const seconds = await chat.say({ text: "Portrait", choice: "size:720x1280" });
      assert.deepEqual(seconds.replies?.[0].buttons?.map((b) => b.id), [
        "seconds:4",
        "seconds:8",
        "seconds:12",
      ]);
      // One question before anything is queued: the tool's own read-back, with the cost.
      const confirm = await chat.say({ text: "8 seconds", choice: "seconds:8" });
      assert.equal(confirm.replies, undefined);
      assert.match(confirm.pending!.summary, /^Make this video\?/);
      assert.match(confirm.pending!.summary, /EasyMO\. 720x1280, 8 seconds \(sora-2\)/);
      assert.match(confirm.pending!.summary, /about US\$0\.80/);
      // Nothing is queued before the staff member confirms.
      const [{ before }] = await db.query<{ before: number }>(
        "select count(*)::int as before from public.video_jobs",
      );
      assert.equal(before, 0);

      const queued = await chat.answer("confirm");
      assert.equal(queued.done, true);
      assert.equal(queued.replies?.[0].text, say("queued", "en", { minutes: "5" }));
      const [job] = await db.query<{ size: string; seconds: number; requester_id: string }>(
        "select size, seconds, requester_id from public.video_jobs",
      );
      assert.deepEqual(job, { size: "720x1280", seconds: 8, requester_id: USER.jean });

      // The background poll: submitted, then finished and sent to Jean.
      await chat.sweep();
      await chat.sweep();
      const sent = await db.query<{ kind: string; to_wa_id: string; body: TestData }>(
        "select kind, to_wa_id, body from public.wa_outbox where idempotency_key like 'video-job:%'",
      );
      assert.equal(sent.length, 1);
      assert.equal(sent[0].kind, "video");
      assert.equal(sent[0].to_wa_id, "250788000002");
      assert.match(sent[0].body.video.caption, /Nyabugogo/);
    } finally {
      await chat.close();
    }
  },
);

dbTest(
  "the flow sends back a brief that states a length, in the staff member's language",
  async (db) => {
    const chat = await staffChat(db);
    try {
      await chat.say({ text: "video" }, USER.jean, "fr");
      const refused = await chat.say(
        { text: "Une vidéo de dix secondes au marché de Kimironko" },
        USER.jean,
        "fr",
      );
      assert.equal(
        refused.replies?.[0].text,
        say("briefStatesFormat", "fr", { phrase: "dix secondes" }),
      );
      // Still at the brief: a good one goes on to the kits.
      const kits = await chat.say({ text: BRIEF }, USER.jean, "fr");
      assert.equal(kits.replies?.[0].text, say("askKit", "fr"));
      assert.equal(chat.server.requests.length, 0);
    } finally {
      await chat.close();
    }
  },
);

dbTest("without a provider key the staff member is told, and no job exists", async (db) => {
  const chat = await staffChat(db, { provider: "none" });
  try {
    await chat.say({ text: "video" }, USER.jean, "rw");
    const kits = await chat.say({ text: BRIEF }, USER.jean, "rw");
    const kit = kits.replies![0].rows![0];
    await chat.say({ text: kit.title, choice: kit.id }, USER.jean, "rw");
    await chat.say({ text: "x", choice: "size:1280x720" }, USER.jean, "rw");
    await chat.say({ text: "x", choice: "seconds:4" }, USER.jean, "rw");
    const answer = await chat.answer("confirm", USER.jean, "rw");
    assert.equal(answer.replies?.[0].text, say("unavailable", "rw"));
    const [{ jobs }] = await db.query<{ jobs: number }>(
      "select count(*)::int as jobs from public.video_jobs",
    );
    assert.equal(jobs, 0);
  } finally {
    await chat.close();
  }
});

dbTest("a customer who reaches the flow gets no brand kits and no job", async (db) => {
  const chat = await staffChat(db);
  try {
    await chat.say({ text: "video" }, USER.aline);
    // RLS shows a customer no brand kit: the studio has nothing to offer them.
    const kits = await chat.say({ text: BRIEF }, USER.aline);
    assert.equal(kits.replies?.[0].text, say("noKit", "en"));
    assert.equal(kits.done, true);
  } finally {
    await chat.close();
  }
});

dbTest("a staff member who cancels the read-back is told, and nothing is queued", async (db) => {
  const chat = await staffChat(db);
  try {
    await chat.say({ text: "video" }, USER.jean, "fr");
    const kits = await chat.say({ text: BRIEF }, USER.jean, "fr");
    const kit = kits.replies![0].rows![0];
    await chat.say({ text: kit.title, choice: kit.id }, USER.jean, "fr");
    await chat.say({ text: "x", choice: "size:1280x720" }, USER.jean, "fr");
    const asked = await chat.say({ text: "x", choice: "seconds:12" }, USER.jean, "fr");
    assert.match(asked.pending!.summary, /^Je fais cette vidéo \?/);
    const answer = await chat.answer("cancel", USER.jean, "fr");
    assert.equal(answer.replies?.[0].text, say("notQueued", "fr"));
    assert.equal(answer.done, true);
    await chat.sweep();
    const [{ jobs }] = await db.query<{ jobs: number }>(
      "select count(*)::int as jobs from public.video_jobs",
    );
    assert.equal(jobs, 0);
    assert.equal(chat.server.requests.length, 0);
  } finally {
    await chat.close();
  }
});
