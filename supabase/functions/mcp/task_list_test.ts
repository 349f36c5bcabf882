// tasks/list reads a page's broadcast and video jobs with one status call per kind (the status
// tools' `job_ids`/`campaign_ids`), not one per task, and lists each with the status that
// tasks/get (one job at a time) gives it. Over HTTP with the SDK client, on both databases.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { addTemplate } from "@testing/broadcasts.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { ORG, USER, VIDEO } from "@testing/seed.ts";
import { createMcpApp } from "./app.ts";

const CAMPAIGN_STATUSES = ["scheduled", "sending", "done", "cancelled", "stopped"];
const VIDEO_STATUSES = ["queued", "processing", "complete", "failed", "cancelled"];

/** Campaigns and video jobs of every status, each tracked as a task of Jean's, and one of Paul's. */
async function seedJobs(db: TestDatabase): Promise<number> {
  const template = await addTemplate(db, ORG.easymo, { name: "list_test" });
  let n = 0;
  const track = (tool: string, job: string, user = USER.jean, org = ORG.easymo) =>
    db.query(
      `insert into public.tool_tasks (org_id, user_id, tool, args, idempotency_key, job, status,
                                      created_at, updated_at)
       values ($1, $2, $3, '{}', $4, $5, 'working', now() - make_interval(secs => $6),
               now() - make_interval(secs => $6))`,
      [org, user, tool, `list-${++n}`, job, n],
    );
  for (const [i, status] of CAMPAIGN_STATUSES.entries()) {
    const [campaign] = await db.query<{ id: string }>(
      `insert into public.broadcast_campaigns
         (org_id, template_id, requested_at, send_at, status, estimated_reach, stop_reason,
          created_by)
       values ($1, $2, now(), now() + interval '2 days', $3, $4, $5, $6) returning id`,
      [ORG.easymo, template, status, i, status === "stopped" ? "Quality dropped" : null, USER.jean],
    );
    await track("broadcast_schedule", campaign.id);
  }
  for (const [i, status] of VIDEO_STATUSES.entries()) {
    const [job] = await db.query<{ id: string }>(
      `insert into public.video_jobs
         (org_id, requester_id, model, size, seconds, prompt, prompt_text, brand_kit_id, status,
          progress, error, result_path)
       values ($1, $2, 'sora-2', '1280x720', 4, '{}', 'A shop at dawn', $3, $4, $5, $6, $7)
       returning id`,
      [
        ORG.easymo,
        USER.jean,
        VIDEO.brandKit,
        status,
        i * 20,
        status === "failed" ? "The provider refused it" : null,
        status === "complete" ? `${ORG.easymo}/videos/done-${i}.mp4` : null,
      ],
    );
    // Every other one started by the remix tool: two tools, one status tool.
    await track(i % 2 ? "sora_remix_video" : "sora_generate_video", job.id);
  }
  // A task whose job is gone: listed by neither call.
  await track("sora_generate_video", crypto.randomUUID());
  return n;
}

dbTest(
  "tasks/list reads a page's jobs with one status call per kind, with the statuses tasks/get gives",
  async (db) => {
    const rt = await createTestRuntime(db);
    const app = createMcpApp({
      ...rt,
      resourceUrl: "https://project.example/functions/v1/mcp",
      authorizationServer: "https://project.example/auth/v1",
      pollIntervalMs: 60_000,
      taskPageSize: 50,
    });
    const server = serveFunction("mcp", (request) => app.fetch(request));
    const client = new Client({ name: "easymo-test", version: "1.0.0" });
    try {
      const rows = await seedJobs(db);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${await rt.tokenFor(USER.jean)}` } },
        }),
      );
      await rt.platform.traces.flush();
      const before = await statusCalls(db);
      const { tasks } = await client.experimental.tasks.listTasks();
      await rt.platform.traces.flush();
      const after = await statusCalls(db);
      // One call per kind for the whole page.
      assert.deepEqual(
        { broadcast: after.broadcast - before.broadcast, video: after.video - before.video },
        { broadcast: 1, video: 1 },
      );
      // Every job that is there, newest first; the gone one is not listed.
      assert.equal(rows, 11);
      assert.equal(tasks.length, 10);
      const statuses = (list: Task[]) =>
        list.map((task) => [task.status, task.statusMessage ?? null]);
      assert.deepEqual(statuses(tasks), [
        ["working", "scheduled"],
        ["working", "sending"],
        ["completed", null],
        ["cancelled", null],
        ["failed", "Quality dropped"],
        ["working", "queued 0%"],
        ["working", "processing 20%"],
        ["completed", null],
        ["failed", "The provider refused it"],
        ["cancelled", null],
      ]);
      // The same as each task read on its own (tasks/get: one status call each).
      const one = [];
      for (const task of tasks) one.push(await client.experimental.tasks.getTask(task.taskId));
      assert.deepEqual(statuses(one), statuses(tasks));
    } finally {
      await client.close();
      await app.close();
      await server.close();
      await rt.platform.close();
    }
  },
);

async function statusCalls(db: TestDatabase): Promise<{ broadcast: number; video: number }> {
  const [row] = await db.query<{ broadcast: number; video: number }>(
    `select count(*) filter (where tool = 'broadcast_status')::int as broadcast,
            count(*) filter (where tool = 'video_job_status')::int as video
     from public.tool_calls`,
  );
  return row;
}
