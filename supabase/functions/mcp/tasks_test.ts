// Deferred tools as MCP tasks: ocr_extract answers a task at once and reads the page in the
// background (through the pipeline, as the caller), its row is what tasks/get, tasks/result,
// tasks/list and tasks/cancel read, and a row whose instance stopped is resumed by the sweep or
// marked failed. The OCR engine is the production OpenAI one, against a loopback server.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type ElicitResult,
  type Task,
  type Tool as Listed,
} from "@modelcontextprotocol/sdk/types.js";
import { dbTest } from "@testing/db.ts";
import { readFixture } from "@testing/documents/generate.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER, VIDEO } from "@testing/seed.ts";
import { startVideosServer } from "@testing/videos_server.ts";
import { createOpenAIVideoProvider } from "@shared/packs/video/openai_videos.ts";
import { VIDEO_PROVIDER } from "@shared/packs/video/video_provider.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { startTestStorage, type TestStorage } from "@testing/storage.ts";
import type { Database } from "@shared/db/types.ts";
import { OCR_ENGINE } from "@shared/capabilities/document_reading/ocr_engine.ts";
import { createOpenAIEngine } from "@shared/capabilities/document_reading/openai_engine.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { MAX_ATTEMPTS, resumeDeferredCalls } from "@shared/pipeline/deferred_calls.ts";
import type { Background } from "@shared/pipeline/deferred_calls.ts";
import { addCustomers, addTemplate, withoutSeededBroadcasts } from "@testing/broadcasts.ts";
import { createMcpApp } from "./app.ts";

const TODAY = new Date("2026-11-24T08:00:00Z");

/** What the loopback OpenAI answers for an ID card page. */
const ID_CARD = JSON.stringify({
  page: "id_card",
  legibility: 0.95,
  fields: {
    full_name: "MUTONI GRACE",
    date_of_birth: "09/07/1991",
    sex: "F",
    place_of_issue: "HUYE",
    national_id: "1 1991 7 0012345 0 12",
    issue_date: "02/03/2020",
  },
});

interface Setup {
  rt: TestRuntime;
  storage: TestStorage;
  url: string;
  /** Lets the held OCR answers go. */
  release(): void;
  /** Pages the OCR server was asked to read. */
  readings(): number;
  upload(file: string): Promise<string>;
  connect(userId: string, org?: string, elicit?: () => ElicitResult): Promise<Client>;
  close(): Promise<void>;
}

async function setup(
  db: Database,
  options: {
    background?: Background;
    now?: () => Date;
    provide?: NonNullable<Parameters<typeof createTestRuntime>[1]>["provide"];
  } = {},
): Promise<Setup> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const openai = startScriptedOpenAI({
    script: async () => {
      await held;
      return { content: ID_CARD };
    },
  });
  const storage = await startTestStorage(db);
  const rt = await createTestRuntime(db, {
    now: options.now ?? (() => TODAY),
    provide: [
      { key: FILE_STORE, value: storage.files },
      {
        key: OCR_ENGINE,
        value: createOpenAIEngine({
          apiKey: openai.apiKey,
          baseURL: openai.baseURL,
          model: "gpt-4o-mini",
        }),
      },
      ...(options.provide ?? []),
    ],
  });
  const app = createMcpApp({
    ...rt,
    resourceUrl: "https://project.example/functions/v1/mcp",
    authorizationServer: "https://project.example/auth/v1",
    pollIntervalMs: 60_000,
    taskPageSize: 2,
    background: options.background,
  });
  const server = serveFunction("mcp", (request) => app.fetch(request));
  const clients: Client[] = [];
  const [convo] = await db.query<{ id: string }>(
    "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
    [ORG.easymo, USER.aline],
  );
  return {
    rt,
    storage,
    url: server.url,
    release,
    readings: () =>
      openai.requests.filter((request) => request.path.endsWith("/chat/completions")).length,
    async upload(file) {
      const path = `${ORG.easymo}/${convo.id}/${file}`;
      await storage.files.upload({
        bucket: "media",
        path,
        bytes: await readFixture("heldout", "13_id_card_clean.jpg"),
        contentType: "image/jpeg",
      });
      return `storage://media/${path}`;
    },
    async connect(userId, org, elicit) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await rt.tokenFor(userId)}`,
      };
      if (org) headers["x-org-id"] = org;
      const client = new Client(
        { name: "easymo-test", version: "1.0.0" },
        { capabilities: elicit ? { elicitation: {} } : {} },
      );
      if (elicit) client.setRequestHandler(ElicitRequestSchema, () => elicit());
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      release();
      for (const client of clients) await client.close();
      await app.close();
      await server.close();
      await rt.platform.close();
      await storage.close();
      await openai.close();
    },
  };
}

function startOcr(client: Client, fileUrl: string, key: string) {
  return client.request({
    method: "tools/call",
    params: {
      name: "ocr_extract",
      arguments: { file_url: fileUrl, document_type: "id_card" },
      task: { ttl: 600_000 },
      _meta: { idempotency_key: key },
    },
  }, CreateTaskResultSchema);
}

function structured(result: unknown) {
  // deno-lint-ignore no-explicit-any
  return (result as CallToolResult).structuredContent as any;
}

dbTest(
  "mcp answers a task-augmented ocr_extract at once and reads the page in the background",
  async (db) => {
    const s = await setup(db);
    try {
      const aline = await s.connect(USER.aline);
      const ocr = (await aline.listTools()).tools.find((tool: Listed) =>
        tool.name === "ocr_extract"
      );
      assert.deepEqual(ocr?.execution, { taskSupport: "optional" });
      assert.deepEqual(aline.getServerCapabilities()?.tasks, {
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      const fileUrl = await s.upload("id.jpg");
      // The OCR server holds its answer: the task comes back while the page is not read.
      const created = await startOcr(aline, fileUrl, "ocr-task-1");
      assert.equal(created.task.status, "working", JSON.stringify(created));
      assert.equal(created.task.pollInterval, 1000);
      const [row] = await db.query<{ status: string; user_id: string; result: unknown }>(
        "select status, user_id, result from public.tool_tasks where tool = 'ocr_extract'",
      );
      assert.ok(["queued", "working"].includes(row.status), row.status);
      assert.deepEqual([row.user_id, row.result], [USER.aline, null]);
      assert.equal((await aline.experimental.tasks.getTask(created.task.taskId)).status, "working");

      // tasks/result waits for the reading; the answer is ocr_extract's own.
      const waiting = aline.experimental.tasks.getTaskResult(
        created.task.taskId,
        CallToolResultSchema,
      );
      s.release();
      const body = structured(await waiting);
      assert.equal(body.ok, true, JSON.stringify(body));
      assert.equal(body.data.fields.full_name, "MUTONI GRACE");
      assert.equal(body.data.raw_media, "redacted");
      const done = await aline.experimental.tasks.getTask(created.task.taskId);
      assert.equal(done.status, "completed");
      // Written as Aline, through the pipeline: her extraction row, and the call's trace.
      const extracted = await db.query<{ user_id: string }>(
        "select user_id from public.document_extractions where id = $1",
        [body.data.extraction_id],
      );
      assert.deepEqual(extracted, [{ user_id: USER.aline }]);
      await s.rt.platform.traces.flush();
      const traced = await db.query<{ user_id: string; ok: boolean }>(
        "select user_id, ok from public.tool_calls where tool = 'ocr_extract'",
      );
      assert.deepEqual(traced, [{ user_id: USER.aline, ok: true }]);

      // The same key again is the same task, and the page is not read twice.
      const again = await startOcr(aline, fileUrl, "ocr-task-1");
      assert.equal(again.task.taskId, created.task.taskId);
      assert.equal(again.task.status, "completed");
      assert.equal(s.readings(), 1);
      // The same key with another document is refused, as a failed task saying why.
      const other = await aline.request({
        method: "tools/call",
        params: {
          name: "ocr_extract",
          arguments: { file_url: fileUrl, document_type: "license" },
          task: { ttl: 600_000 },
          _meta: { idempotency_key: "ocr-task-1" },
        },
      }, CreateTaskResultSchema);
      assert.equal(other.task.status, "failed");
      assert.match(other.task.statusMessage ?? "", /^CONFLICT/);
      // Bad arguments fail at once, naming the field; nothing is queued.
      const bad = await aline.request({
        method: "tools/call",
        params: {
          name: "ocr_extract",
          arguments: { file_url: fileUrl, document_type: "passport" },
          task: { ttl: 600_000 },
          _meta: { idempotency_key: "ocr-task-2" },
        },
      }, CreateTaskResultSchema);
      assert.equal(bad.task.status, "failed");
      const why = structured(
        await aline.experimental.tasks.getTaskResult(bad.task.taskId, CallToolResultSchema),
      );
      assert.equal(why.error.code, "VALIDATION_ERROR");
      assert.equal(why.error.fields[0].path, "document_type");
      const [{ count }] = await db.query<{ count: number }>(
        "select count(*)::int as count from public.tool_tasks",
      );
      assert.equal(count, 1);

      // Paul (another tenant) cannot read it with the same id.
      const paul = await s.connect(USER.paul, ORG.beaver);
      await assert.rejects(paul.experimental.tasks.getTask(created.task.taskId), /Task not found/);

      // Without a task, ocr_extract still answers synchronously, as the WhatsApp flow calls it.
      const direct = structured(
        await aline.callTool({
          name: "ocr_extract",
          arguments: { file_url: await s.upload("id2.jpg"), document_type: "id_card" },
          _meta: { idempotency_key: "ocr-direct-1" },
        }),
      );
      assert.equal(direct.ok, true, JSON.stringify(direct));
      assert.equal(direct.data.fields.full_name, "MUTONI GRACE");
    } finally {
      await s.close();
    }
  },
);

dbTest(
  "tasks/list shows a customer their tasks and staff their tenant's, in pages; tasks/cancel stops one not started",
  async (db) => {
    // An instance that never starts the work (it stopped at once): rows stay queued.
    const s = await setup(db, { background: () => {} });
    try {
      const aline = await s.connect(USER.aline);
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        ids.push((await startOcr(aline, await s.upload(`p${n}.jpg`), `list-${n}`)).task.taskId);
      }
      const firstPage = await aline.experimental.tasks.listTasks();
      assert.equal(firstPage.tasks.length, 2);
      assert.ok(firstPage.nextCursor);
      const secondPage = await aline.experimental.tasks.listTasks(firstPage.nextCursor);
      assert.equal(secondPage.nextCursor, undefined);
      const listed = [...firstPage.tasks, ...secondPage.tasks];
      assert.deepEqual(new Set(listed.map((task) => task.taskId)), new Set(ids));
      assert.ok(
        listed.every((task) => task.status === "working" && task.statusMessage === "queued"),
      );
      await assert.rejects(aline.experimental.tasks.listTasks("bm9wZQ"), /Invalid cursor/);

      // Jean (EasyMO staff) sees the tenant's tasks; Paul (Beaver staff) and Nina (a Beaver
      // customer) see none of them.
      const jean = await s.connect(USER.jean);
      const jeanFirst = await jean.experimental.tasks.listTasks();
      const jeanAll = [
        ...jeanFirst.tasks,
        ...(await jean.experimental.tasks.listTasks(jeanFirst.nextCursor)).tasks,
      ];
      assert.equal(jeanAll.length, 3);
      for (const [user, org] of [[USER.paul, ORG.beaver], [USER.nina, ORG.beaver]]) {
        const outsider = await s.connect(user, org);
        assert.deepEqual((await outsider.experimental.tasks.listTasks()).tasks, []);
        await assert.rejects(outsider.experimental.tasks.cancelTask(ids[0]), /Task not found/);
      }

      // A task not started is cancelled; its result says so; it is never run.
      const cancelled = await aline.experimental.tasks.cancelTask(ids[0]);
      assert.equal(cancelled.status, "cancelled");
      assert.equal((await aline.experimental.tasks.getTask(ids[0])).status, "cancelled");
      const result = structured(
        await aline.experimental.tasks.getTaskResult(ids[0], CallToolResultSchema),
      );
      assert.equal(result.error.code, "CANCELLED");
      await assert.rejects(aline.experimental.tasks.cancelTask(ids[0]), /Cannot cancel task/);

      // The sweep (another instance, after a restart) reads the others; a started one is past
      // cancelling.
      s.release();
      // The platform's own sweep (pg_cron's POST /agent/sweep deployed) is what resumes them.
      await s.rt.platform.sweep();
      assert.equal((await aline.experimental.tasks.getTask(ids[1])).status, "completed");
      assert.equal((await aline.experimental.tasks.getTask(ids[0])).status, "cancelled");
      await assert.rejects(
        aline.experimental.tasks.cancelTask(ids[2]),
        /Cannot cancel task: The task is completed/,
      );
      assert.equal(s.readings(), 2);
    } finally {
      await s.close();
    }
  },
);

dbTest(
  "a deferred call whose instance stopped is run again by the sweep, then marked failed after its last attempt",
  async (db) => {
    let now = TODAY;
    const s = await setup(db, { background: () => {}, now: () => now });
    try {
      const aline = await s.connect(USER.aline);
      const created = await startOcr(aline, await s.upload("r.jpg"), "resume-1");
      // An instance took it and stopped: working, its lease still running. The sweep leaves it.
      await db.query(
        `update public.tool_tasks set status = 'working', attempts = 1,
           lease_until = $1::timestamptz + interval '5 minutes'`,
        [TODAY.toISOString()],
      );
      assert.equal(await resumeDeferredCalls(s.rt.platform, { now }), 0);
      // Its lease ran out, and it had its last attempt: failed, saying why; nothing is read.
      await db.query("update public.tool_tasks set attempts = $1", [MAX_ATTEMPTS]);
      now = new Date(TODAY.getTime() + 10 * 60_000);
      assert.equal(await resumeDeferredCalls(s.rt.platform, { now }), 1);
      const task = await aline.experimental.tasks.getTask(created.task.taskId);
      assert.equal(task.status, "failed");
      assert.match(task.statusMessage ?? "", /^TIMEOUT: The work stopped before it finished/);
      assert.equal(s.readings(), 0);

      // One with attempts left is run again, to completion.
      const second = await startOcr(aline, await s.upload("r2.jpg"), "resume-2");
      await db.query(
        `update public.tool_tasks set status = 'working', attempts = 1, lease_until = $1
          where idempotency_key = 'resume-2'`,
        [TODAY.toISOString()],
      );
      s.release();
      assert.equal(await resumeDeferredCalls(s.rt.platform, { now }), 1);
      assert.equal(
        (await aline.experimental.tasks.getTask(second.task.taskId)).status,
        "completed",
      );
      assert.equal(s.readings(), 1);
    } finally {
      await s.close();
    }
  },
);

dbTest(
  "a broadcast's task is listed for its tenant's staff and cancelled through broadcast_cancel, confirmed in the client",
  async (db) => {
    const s = await setup(db, { now: () => new Date("2029-12-01T08:00:00Z") });
    await withoutSeededBroadcasts(db);
    const template = await addTemplate(db, ORG.easymo, {
      name: "offer",
      variables: ["first_name"],
    });
    await addCustomers(db, ORG.easymo, { count: 2 });
    try {
      const confirmations: string[] = [];
      const jean = await s.connect(USER.jean, undefined, () => {
        confirmations.push("asked");
        return { action: "accept", content: { confirm: true } };
      });
      const created = await jean.request({
        method: "tools/call",
        params: {
          name: "broadcast_schedule",
          arguments: {
            template_id: template,
            audience: { segment: "opted_in" },
            when: "2030-01-05T10:00:00+02:00",
            variables: { first_name: "friend" },
          },
          task: { ttl: 60_000 },
          _meta: { idempotency_key: "campaign-task-1" },
        },
      }, CreateTaskResultSchema);
      assert.equal(created.task.status, "working", JSON.stringify(created));
      const listed = await jean.experimental.tasks.listTasks();
      assert.deepEqual(
        listed.tasks.map((task: Task) => [task.taskId, task.status, task.statusMessage]),
        [[created.task.taskId, "working", "scheduled"]],
      );
      // Aline (a customer) and Paul (another tenant's staff) have no such task.
      const aline = await s.connect(USER.aline);
      assert.deepEqual((await aline.experimental.tasks.listTasks()).tasks, []);
      const paul = await s.connect(USER.paul, ORG.beaver);
      await assert.rejects(
        paul.experimental.tasks.cancelTask(created.task.taskId),
        /Task not found/,
      );

      // A client that cannot be asked is told how to confirm; nothing is cancelled.
      const plain = await s.connect(USER.jean);
      await assert.rejects(
        plain.experimental.tasks.cancelTask(created.task.taskId),
        /Cannot cancel task: CONFIRMATION_REQUIRED.*broadcast_cancel/,
      );
      assert.equal((await jean.experimental.tasks.getTask(created.task.taskId)).status, "working");

      const asked = confirmations.length;
      const cancelled = await jean.experimental.tasks.cancelTask(created.task.taskId);
      assert.equal(cancelled.status, "cancelled");
      assert.equal(confirmations.length, asked + 1);
      const [campaign] = await db.query<{ status: string }>(
        "select status from public.broadcast_campaigns where org_id = $1",
        [ORG.easymo],
      );
      assert.equal(campaign.status, "cancelled");
      await assert.rejects(
        jean.experimental.tasks.cancelTask(created.task.taskId),
        /Cannot cancel task: already in terminal status 'cancelled'/,
      );
    } finally {
      await s.close();
    }
  },
);

dbTest(
  "a video task is cancelled while its job waits for the provider, and not once it is there",
  async (db) => {
    const videos = startVideosServer();
    const s = await setup(db, {
      provide: [{
        key: VIDEO_PROVIDER,
        value: createOpenAIVideoProvider({
          apiKey: videos.apiKey,
          baseURL: videos.baseURL,
          timeoutMs: 5000,
        }),
      }],
    });
    const video = (scene: string) => ({
      prompt: {
        scene,
        cinematography: {
          camera_shot: "Slow dolly-in at eye level",
          lighting_palette: "Soft morning light with #00A1DE accents",
        },
        actions: [{ time: "0-4s", description: "She taps the EasyMO button." }],
      },
      params: { model: "sora-2", size: "1280x720", seconds: 4 },
      brand_kit_id: VIDEO.brandKit,
    });
    try {
      const jean = await s.connect(USER.jean, undefined, () => ({
        action: "accept",
        content: { confirm: true },
      }));
      const start = async (scene: string, key: string) =>
        (await jean.request({
          method: "tools/call",
          params: {
            name: "sora_generate_video",
            arguments: video(scene),
            task: { ttl: 600_000 },
            _meta: { idempotency_key: key },
          },
        }, CreateTaskResultSchema)).task;
      const waiting = await start(
        "A moto driver in a blue EasyMO vest picks up a customer at Nyabugogo.",
        "video-cancel-1",
      );
      const sent = await start(
        "A market seller in Kimironko shows the EasyMO app to a friend.",
        "video-cancel-2",
      );
      assert.equal(waiting.status, "working", JSON.stringify(waiting));
      const cancelled = await jean.experimental.tasks.cancelTask(waiting.taskId);
      assert.equal(cancelled.status, "cancelled");
      assert.equal((await jean.experimental.tasks.getTask(waiting.taskId)).status, "cancelled");
      // The poll (the platform's sweep) sends the other job to the provider, never this one.
      await s.rt.platform.sweep();
      const jobs = await db.query<{ status: string; provider_job_id: string | null }>(
        "select status, provider_job_id from public.video_jobs where org_id = $1 order by created_at",
        [ORG.easymo],
      );
      assert.deepEqual(jobs.map((job) => [job.status, job.provider_job_id !== null]), [
        ["cancelled", false],
        // At the provider (queued there): the provider's own status, its id kept.
        ["queued", true],
      ]);
      assert.equal(videos.requests.filter((request) => request.method === "POST").length, 1);
      // The one at the provider is past cancelling, and says so.
      await assert.rejects(
        jean.experimental.tasks.cancelTask(sent.taskId),
        /Cannot cancel task: CONFLICT: The video is already being made/,
      );
      // Aline (no staff) cannot cancel a studio job.
      const aline = await s.connect(USER.aline);
      await assert.rejects(aline.experimental.tasks.cancelTask(sent.taskId), /Task not found/);
    } finally {
      await s.close();
      await videos.close();
    }
  },
);
