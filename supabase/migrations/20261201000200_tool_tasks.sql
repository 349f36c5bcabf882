-- Deferred tool calls (issue 28: long-running tools as MCP tasks). A tool that
-- works synchronously but slowly (ocr_extract reads a page for seconds) can be
-- started as a task: the call is recorded here as queued, answered at once,
-- and run later through the pipeline as the caller (same idempotency key,
-- RLS, trace). The row is the task's job: its status, and the call's answer
-- once done. A row whose lease ran out (the instance running it stopped) is
-- resumed by the platform sweep, or marked failed after its last attempt.
--
-- A task of a tool that keeps its own job row (a broadcast's campaign, a
-- video job) is recorded here too, with `job` naming that row, so that
-- tasks/list finds it; its state is read from its own row, never run here.

create table public.tool_tasks (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- Who started it (null for a service caller); the call runs again as them.
  user_id uuid,
  tool text not null check (length(tool) <= 64),
  args jsonb not null,
  idempotency_key text not null check (length(idempotency_key) <= 255),
  -- The tool's own job row (a campaign, a video job); null for a deferred call run from here.
  job text check (length(job) <= 200),
  agent_id text check (length(agent_id) <= 64),
  trace_id text check (length(trace_id) <= 128),
  status text not null default 'queued'
    check (status in ('queued', 'working', 'completed', 'failed', 'cancelled')),
  -- The call's answer, {ok, data} or {ok: false, error}, once it ran.
  result jsonb,
  attempts integer not null default 0 check (attempts >= 0),
  -- Until when the instance running it holds it; past that, the sweep takes it.
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (org_id, user_id) references public.org_members (org_id, user_id)
    on delete cascade
);
-- One task per caller, tool and idempotency key: a retried start answers the same task.
create unique index tool_tasks_caller_key_idx
  on public.tool_tasks (org_id, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid),
    tool, idempotency_key);
create index tool_tasks_org_user_idx on public.tool_tasks (org_id, user_id);
-- tasks/list pages newest first; the sweep looks for open rows.
create index tool_tasks_org_created_idx on public.tool_tasks (org_id, created_at desc, id);
create index tool_tasks_open_idx on public.tool_tasks (lease_until)
  where status in ('queued', 'working') and job is null;

alter table public.tool_tasks enable row level security;

-- A customer reads their own tasks; the tenant's staff read the tenant's.
create policy tool_tasks_select on public.tool_tasks for select
  to authenticated
  using (user_id = (select auth.uid())
    or org_id in (select v.org_id from private.my_staff_memberships v));
-- A task is started as the caller, in one of the caller's orgs.
create policy tool_tasks_insert on public.tool_tasks for insert
  to authenticated
  with check (user_id = (select auth.uid())
    and org_id in (select v.org_id from private.my_memberships v));

grant select, insert on public.tool_tasks to authenticated;
grant select, insert, update, delete on public.tool_tasks to service_role;
