-- Rate limits shared by every function instance: token buckets per
-- (org, tool, user) and per (org, tool), held here so that scaling out does
-- not multiply the limits. Only the pipeline, as the connecting role, touches
-- them (like the idempotency ledger): nothing is granted to API roles.

create table private.rate_buckets (
  org_id uuid not null references public.orgs (id) on delete cascade,
  tool text not null,
  -- The caller's user id (or role for callers without one); '' is the tenant's bucket.
  subject text not null,
  tokens double precision not null,
  updated_at timestamptz not null,
  primary key (org_id, tool, subject)
);
-- A bucket idle for a whole window is full again: purging by age loses nothing.
create index rate_buckets_updated_at_idx on private.rate_buckets (updated_at);
alter table private.rate_buckets enable row level security;
revoke all on private.rate_buckets from public, anon, authenticated;

-- Takes up to p_want tokens from the caller's bucket and the tenant's bucket
-- at once: the grant is what both can give (0 when either has less than one
-- token), so a refused call consumes nothing from the other bucket. Buckets
-- refill continuously at limit / window. The rows are locked for this
-- statement only (tenant row first, so two callers never wait on each other
-- in opposite orders); call it outside the tool's transaction so the
-- tenant's bucket is not held while a tool runs.
create function private.take_rate_tokens(
  p_org_id uuid,
  p_tool text,
  p_subject text,
  p_user_limit int,
  p_user_window_sec int,
  p_tenant_limit int,
  p_tenant_window_sec int,
  p_want int
) returns int
language plpgsql volatile set search_path = ''
as $$
declare
  v_now timestamptz;
  v_user double precision;
  v_tenant double precision;
  v_grant int;
begin
  if p_want < 1 or p_user_limit < 1 or p_tenant_limit < 1
     or p_user_window_sec < 1 or p_tenant_window_sec < 1 or p_subject = '' then
    raise exception 'take_rate_tokens: invalid arguments' using errcode = '22023';
  end if;
  insert into private.rate_buckets as b (org_id, tool, subject, tokens, updated_at)
  values (p_org_id, p_tool, '', p_tenant_limit, clock_timestamp()),
         (p_org_id, p_tool, p_subject, p_user_limit, clock_timestamp())
  on conflict (org_id, tool, subject) do nothing;

  perform 1 from private.rate_buckets b
  where b.org_id = p_org_id and b.tool = p_tool and b.subject in ('', p_subject)
  order by b.subject
  for update;
  v_now := clock_timestamp();

  select least(p_tenant_limit::double precision, b.tokens + greatest(0, extract(epoch from v_now - b.updated_at))
           * p_tenant_limit / p_tenant_window_sec)
    into v_tenant
  from private.rate_buckets b where b.org_id = p_org_id and b.tool = p_tool and b.subject = '';
  select least(p_user_limit::double precision, b.tokens + greatest(0, extract(epoch from v_now - b.updated_at))
           * p_user_limit / p_user_window_sec)
    into v_user
  from private.rate_buckets b where b.org_id = p_org_id and b.tool = p_tool and b.subject = p_subject;

  v_grant := least(p_want, floor(v_user)::int, floor(v_tenant)::int);
  if v_grant < 1 then
    v_grant := 0;
  end if;
  update private.rate_buckets b
    set tokens = case when b.subject = '' then v_tenant else v_user end - v_grant,
        updated_at = v_now
  where b.org_id = p_org_id and b.tool = p_tool and b.subject in ('', p_subject);
  return v_grant;
end
$$;

-- Gives back tokens taken in advance and not used (a lease that expired),
-- never filling a bucket past its limit.
create function private.return_rate_tokens(
  p_org_id uuid,
  p_tool text,
  p_subject text,
  p_user_limit int,
  p_tenant_limit int,
  p_count int
) returns void
language sql volatile set search_path = ''
as $$
  update private.rate_buckets b
    set tokens = least(case when b.subject = '' then p_tenant_limit else p_user_limit end,
                       b.tokens + greatest(p_count, 0))
  where b.org_id = p_org_id and b.tool = p_tool and b.subject in ('', p_subject)
    and p_subject <> ''
$$;

revoke all on function private.take_rate_tokens(uuid, text, text, int, int, int, int, int)
  from public;
revoke all on function private.return_rate_tokens(uuid, text, text, int, int, int) from public;
