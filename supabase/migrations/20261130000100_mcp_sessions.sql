-- MCP sessions (supabase/functions/mcp): what a session needs to be served by
-- any instance of the stateless function: its tenant, whose it is, the agent
-- it is narrowed to, and the client's own initialize parameters. Service only.
create table private.mcp_sessions (
  id uuid primary key,
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- The user id (sub), or `role:<role>` for tokens without a user (anon, service).
  caller_key text not null check (length(caller_key) between 1 and 200),
  agent_id text check (length(agent_id) <= 64),
  protocol_version text not null check (length(protocol_version) <= 32),
  client_info jsonb not null default '{}'::jsonb,
  client_capabilities jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);

create index mcp_sessions_org_id_idx on private.mcp_sessions (org_id);
-- Expired sessions are purged by age (shared/mcp/session_host.ts).
create index mcp_sessions_created_at_idx on private.mcp_sessions (created_at);

alter table private.mcp_sessions enable row level security;
revoke all on private.mcp_sessions from public, anon, authenticated;
