-- A database-level send budget for staff (issue 28): since 20261202000201 a
-- staff member may queue WhatsApp messages to their own org's contacts
-- through the Data API, with any text. Nothing stopped a script holding a
-- staff token from queueing thousands a minute. Now every row a signed-in
-- caller (role `authenticated`) inserts into public.wa_outbox spends one
-- token of that staff member's budget in that org, a token bucket kept here:
--
--   * 30 tokens at most (a burst): a staff member catching up on an inbox,
--     or confirming 15 payments back to back (each tells the payer and the
--     payee, two messages), is never stopped;
--   * refilled at 10 a minute (one every 6 s), i.e. 600 an hour sustained:
--     faster than anyone types replies, far below what a script would send.
--     Messages to many contacts at once are broadcasts, which the service
--     sends with consent and opt-out rules of their own;
--   * and, for all the org's staff together, 120 at once and 60 a minute
--     (3,600 an hour): four people working flat out, so a handful of staff
--     tokens (or accounts) cannot add up to a flood from the org's number.
--
-- Over budget, the insert fails with SQLSTATE PT429: the Data API (PostgREST)
-- answers it as HTTP 429, and a tool running as the staff member as
-- RATE_LIMIT (shared/db/errors.ts), with nothing of its transaction kept.
-- The server's own writes (the service, the pipeline after `reset role`, the
-- inbox's replies) spend nothing: they are bounded by their own tools' limits.
--
-- Concurrent inserts cannot overspend: each one takes the bucket row's lock
-- through `insert ... on conflict do update`, which re-reads the row as the
-- transaction before it left it. Counted in an AFTER trigger, so a row that
-- an idempotent retry does not insert (`on conflict do nothing`) costs
-- nothing, and never by `created_at`, which the inserting staff member sets.

create table private.staff_send_budgets (
  org_id uuid not null,
  user_id uuid not null,
  -- What is left, as of refilled_at (fractions accrue between messages).
  tokens double precision not null check (tokens >= 0 and tokens <= 30),
  refilled_at timestamptz not null,
  primary key (org_id, user_id),
  -- A member who leaves the org takes their budget with them.
  foreign key (org_id, user_id) references public.org_members (org_id, user_id) on delete cascade
);
alter table private.staff_send_budgets enable row level security;
revoke all on private.staff_send_budgets from public, anon, authenticated;

-- The org's budget for all its staff together.
create table private.org_staff_send_budgets (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  tokens double precision not null check (tokens >= 0 and tokens <= 120),
  refilled_at timestamptz not null
);
alter table private.org_staff_send_budgets enable row level security;
revoke all on private.org_staff_send_budgets from public, anon, authenticated;

-- Spends one token of the org's and of the inserting staff member's budget, or refuses the row.
-- The org's row is always taken first, so two transactions never wait on each other in turn.
create function private.spend_staff_send_token() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  capacity constant double precision := 30;
  per_second constant double precision := 10.0 / 60;
  org_capacity constant double precision := 120;
  org_per_second constant double precision := 1;
  caller uuid := (select auth.uid());
  left_over double precision;
  wait_s int;
begin
  if caller is null then
    raise exception using errcode = '42501', message = 'a staff message needs a signed-in caller';
  end if;
  insert into private.org_staff_send_budgets as b (org_id, tokens, refilled_at)
  values (new.org_id, org_capacity - 1, now())
  on conflict (org_id) do update
    set tokens = least(org_capacity, b.tokens
                   + greatest(0, extract(epoch from now() - b.refilled_at)) * org_per_second) - 1,
        refilled_at = greatest(b.refilled_at, now())
    where least(org_capacity, b.tokens
            + greatest(0, extract(epoch from now() - b.refilled_at)) * org_per_second) >= 1
  returning b.tokens into left_over;
  if left_over is null then
    select ceil((1 - least(org_capacity, b.tokens
                 + greatest(0, extract(epoch from now() - b.refilled_at)) * org_per_second))
                / org_per_second)::int
      into wait_s
      from private.org_staff_send_budgets b
     where b.org_id = new.org_id;
    raise exception using errcode = 'PT429',
      message = 'the org''s staff message budget is spent: 120 at once, 60 a minute',
      detail = format('org %s', new.org_id),
      hint = format('retry in %s s', greatest(coalesce(wait_s, 1), 1));
  end if;
  left_over := null;
  insert into private.staff_send_budgets as b (org_id, user_id, tokens, refilled_at)
  values (new.org_id, caller, capacity - 1, now())
  on conflict (org_id, user_id) do update
    set tokens = least(capacity, b.tokens
                   + greatest(0, extract(epoch from now() - b.refilled_at)) * per_second) - 1,
        -- A transaction that started before the last spend refills nothing.
        refilled_at = greatest(b.refilled_at, now())
    where least(capacity, b.tokens
            + greatest(0, extract(epoch from now() - b.refilled_at)) * per_second) >= 1
  returning b.tokens into left_over;
  if left_over is null then
    select ceil((1 - least(capacity, b.tokens
                 + greatest(0, extract(epoch from now() - b.refilled_at)) * per_second))
                / per_second)::int
      into wait_s
      from private.staff_send_budgets b
     where b.org_id = new.org_id and b.user_id = caller;
    raise exception using errcode = 'PT429',
      message = 'staff message budget spent: 30 at once, 10 a minute',
      detail = format('org %s', new.org_id),
      hint = format('retry in %s s', greatest(coalesce(wait_s, 1), 1));
  end if;
  return null;
end
$$;
revoke all on function private.spend_staff_send_token() from public, anon, authenticated;

-- `current_user` in WHEN is the inserting role (inside the definer it would be the owner).
create trigger wa_outbox_staff_send_budget
  after insert on public.wa_outbox
  for each row when (current_user = 'authenticated')
  execute function private.spend_staff_send_token();
