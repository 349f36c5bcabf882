-- Answers to the server's own requests (elicitation/create) that reached
-- another instance than the one that asked (shared/mcp/session_host.ts): the
-- instance the client's POST landed on keeps the answer here, keyed by
-- session and request id; the asking instance picks it up and deletes it.
-- Service only.
create table private.mcp_responses (
  session_id uuid not null references private.mcp_sessions (id) on delete cascade,
  request_id text not null check (length(request_id) <= 200),
  -- The JSON-RPC response as the client sent it.
  message jsonb not null,
  created_at timestamptz not null default now(),
  primary key (session_id, request_id)
);
-- Answers nobody picked up (the asker gave up) are purged by age.
create index mcp_responses_created_at_idx on private.mcp_responses (created_at);

alter table private.mcp_responses enable row level security;
revoke all on private.mcp_responses from public, anon, authenticated;
