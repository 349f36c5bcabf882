-- A hanging model is not two minutes of silence (issue 23, item 4): the
-- circuit breaker in front of the model, one row per tenant (org) and model
-- endpoint (its base URL, never a key). After a run of failed turns it opens:
-- until retry_at every turn of the org skips the model and is answered
-- offline at once; then one turn claims the probe (probe_until) and its
-- answer closes the breaker. Kept here, not in a function instance's memory,
-- so every instance sees the same breaker and only one probes at a time (see
-- shared/agent/model_breaker.ts). Only the server, as the connecting role,
-- touches it: nothing is granted to API roles.
create table private.model_breakers (
  org_id uuid not null references public.orgs (id) on delete cascade,
  endpoint text not null check (length(endpoint) between 1 and 500),
  -- Failed turns in a row (an answer resets it).
  failures int not null default 0 check (failures >= 0),
  -- When it opened; null while closed.
  opened_at timestamptz,
  -- The end of the cool-down: from then one turn may probe.
  retry_at timestamptz,
  -- A probe is in flight until then (an instance that died mid-probe frees it).
  probe_until timestamptz,
  updated_at timestamptz not null,
  primary key (org_id, endpoint),
  check ((opened_at is null) = (retry_at is null))
);
alter table private.model_breakers enable row level security;
revoke all on private.model_breakers from public, anon, authenticated;
