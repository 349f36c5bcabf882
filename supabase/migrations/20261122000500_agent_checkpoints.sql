-- LangGraph checkpoints of each conversation's agent state, so a
-- conversation resumes after a restart and across webhook deliveries. Only
-- the agent runtime (connecting role) reads and writes them.

create table private.agent_checkpoints (
  thread_id text not null,
  checkpoint_ns text not null default '',
  checkpoint_id text not null,
  parent_checkpoint_id text,
  type text,
  checkpoint bytea not null,
  metadata bytea not null,
  created_at timestamptz not null default now(),
  primary key (thread_id, checkpoint_ns, checkpoint_id)
);

create table private.agent_checkpoint_writes (
  thread_id text not null,
  checkpoint_ns text not null default '',
  checkpoint_id text not null,
  task_id text not null,
  idx int not null,
  channel text not null,
  type text,
  value bytea,
  primary key (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
);

revoke all on private.agent_checkpoints, private.agent_checkpoint_writes
  from public, anon, authenticated;
alter table private.agent_checkpoints enable row level security;
alter table private.agent_checkpoint_writes enable row level security;
