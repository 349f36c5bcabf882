-- Marketing broadcasts (seed 000 G, `broadcast_schedule`): WhatsApp templates
-- recorded as approved, each person's opt-in proof and opt-outs, campaigns and
-- one send row per campaign and recipient. Only staff of the org read or
-- write any of it; the sender (`broadcast_send_due`, a service tool) and the
-- opt-out counterpart act as the service.

-- A message template as Meta approved it: its name and language, the names of
-- its body's variables in order ({{1}}, {{2}}, ...) and Meta's current status.
-- Only 'approved' ones may be scheduled; Meta pauses (132015) or disables
-- (132016) a template whose quality drops, which stops its campaigns.
create table public.broadcast_templates (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  name text not null check (name ~ '^[a-z0-9_]+$' and length(name) <= 512),
  language text not null check (language in ('en', 'rw', 'fr')),
  category text not null default 'marketing' check (category in ('marketing', 'utility')),
  variables text[] not null default '{}'
    check (cardinality(variables) <= 20 and array_position(variables, null) is null),
  -- What the body says, for staff choosing one ({{1}} for the first variable).
  body text not null default '' check (length(body) <= 1024),
  meta_status text not null default 'pending'
    check (meta_status in ('pending', 'approved', 'rejected', 'paused', 'disabled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, name, language),
  unique (org_id, id)
);
alter table public.broadcast_templates enable row level security;

-- Proof that a person agreed to marketing messages: when, how, the exact text
-- they agreed to. One per person and org; recording a new proof after an
-- opt-out clears `opted_out_at` (the person agreed again). `opted_out_at` is
-- set by an opt-out in the same transaction that logs it, so the sender,
-- which locks these rows, never queues a message to someone who said STOP.
create table public.marketing_opt_ins (
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  opted_in_at timestamptz not null,
  channel text not null check (channel in ('whatsapp', 'web', 'sms', 'paper', 'in_person')),
  agreed_text text not null check (length(agreed_text) between 1 and 2000),
  opted_out_at timestamptz,
  recorded_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (org_id, user_id),
  foreign key (org_id, user_id) references public.org_members (org_id, user_id) on delete cascade,
  foreign key (org_id, recorded_by) references public.org_members (org_id, user_id)
    on delete set null (recorded_by)
);
create index marketing_opt_ins_user_idx on public.marketing_opt_ins (user_id);
create index marketing_opt_ins_recorded_by_idx on public.marketing_opt_ins (recorded_by);
create index marketing_opt_ins_org_recorded_by_idx on public.marketing_opt_ins (org_id, recorded_by);
alter table public.marketing_opt_ins enable row level security;

-- Every opt-out as it was said ("STOP", "HAGARIKA", ...), kept even for
-- people who never opted in.
create table public.marketing_opt_outs (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  opted_out_at timestamptz not null,
  channel text not null check (channel in ('whatsapp', 'web', 'sms', 'staff')),
  said text not null check (length(said) between 1 and 200),
  created_at timestamptz not null default now(),
  foreign key (org_id, user_id) references public.org_members (org_id, user_id) on delete cascade
);
create index marketing_opt_outs_org_user_idx on public.marketing_opt_outs (org_id, user_id);
create index marketing_opt_outs_user_idx on public.marketing_opt_outs (user_id);
alter table public.marketing_opt_outs enable row level security;

-- Each org's quiet hours, in its time zone: no campaign starts or sends in
-- them. Without a row: 21:00–08:00 Africa/Kigali.
create table public.broadcast_settings (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  quiet_start time not null default '21:00',
  quiet_end time not null default '08:00',
  time_zone text not null default 'Africa/Kigali' check (length(time_zone) between 1 and 64),
  updated_at timestamptz not null default now()
);
alter table public.broadcast_settings enable row level security;

-- A campaign: an approved template with its variables, an audience filter and
-- when it goes out (`send_at`, after quiet hours; `requested_at` is what
-- staff asked for). 'stopped' is a campaign Meta's answer ended (template
-- paused or disabled); `backoff_until` holds a campaign after a spam limit.
create table public.broadcast_campaigns (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  template_id uuid not null,
  variables jsonb not null default '{}' check (jsonb_typeof(variables) = 'object'),
  audience jsonb not null default '{}' check (jsonb_typeof(audience) = 'object'),
  requested_at timestamptz not null,
  send_at timestamptz not null,
  status text not null default 'scheduled'
    check (status in ('scheduled', 'sending', 'done', 'cancelled', 'stopped')),
  estimated_reach int not null check (estimated_reach >= 0),
  backoff_until timestamptz,
  stop_reason text check (length(stop_reason) <= 500),
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  foreign key (org_id, template_id) references public.broadcast_templates (org_id, id),
  foreign key (org_id, created_by) references public.org_members (org_id, user_id)
    on delete set null (created_by)
);
create index broadcast_campaigns_due_idx on public.broadcast_campaigns (send_at)
  where status in ('scheduled', 'sending');
create index broadcast_campaigns_org_idx on public.broadcast_campaigns (org_id, created_at);
create index broadcast_campaigns_template_idx on public.broadcast_campaigns (org_id, template_id);
create index broadcast_campaigns_created_by_idx on public.broadcast_campaigns (created_by);
create index broadcast_campaigns_org_created_by_idx on public.broadcast_campaigns (org_id, created_by);
alter table public.broadcast_campaigns enable row level security;

-- One row per campaign and recipient, written in the transaction that queues
-- the recipient's message: the primary key is the claim, so a sender that
-- died and ran again queues nobody twice and, its transaction having rolled
-- back whole, skips nobody. Status follows the message's status webhooks.
create table public.broadcast_sends (
  campaign_id uuid not null,
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  outbox_id uuid references public.wa_outbox (id) on delete set null,
  status text not null default 'queued'
    check (status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'withdrawn')),
  wamid text,
  error_code int,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (campaign_id, user_id),
  foreign key (org_id, campaign_id) references public.broadcast_campaigns (org_id, id)
    on delete cascade,
  foreign key (org_id, user_id) references public.org_members (org_id, user_id) on delete cascade
);
create index broadcast_sends_outbox_idx on public.broadcast_sends (outbox_id);
create index broadcast_sends_org_campaign_idx on public.broadcast_sends (org_id, campaign_id);
create index broadcast_sends_org_user_idx on public.broadcast_sends (org_id, user_id)
  where status = 'queued';
create index broadcast_sends_user_idx on public.broadcast_sends (user_id);
alter table public.broadcast_sends enable row level security;

-- Staff of the org only, for every table; customers see nothing of it.
create policy broadcast_templates_staff on public.broadcast_templates for all to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy marketing_opt_ins_staff on public.marketing_opt_ins for all to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy marketing_opt_outs_staff on public.marketing_opt_outs for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy broadcast_settings_staff on public.broadcast_settings for all to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy broadcast_campaigns_staff on public.broadcast_campaigns for all to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy broadcast_sends_staff on public.broadcast_sends for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));

revoke all on public.broadcast_templates, public.marketing_opt_ins, public.marketing_opt_outs,
  public.broadcast_settings, public.broadcast_campaigns, public.broadcast_sends
  from anon, authenticated;
grant select, insert, update, delete on public.broadcast_templates, public.marketing_opt_ins,
  public.broadcast_settings to authenticated;
grant select, insert, update on public.broadcast_campaigns to authenticated;
grant select on public.marketing_opt_outs, public.broadcast_sends to authenticated;
grant all on public.broadcast_templates, public.marketing_opt_ins, public.marketing_opt_outs,
  public.broadcast_settings, public.broadcast_campaigns, public.broadcast_sends to service_role;

-- Withdraws the campaign messages still queued (not yet claimed by the
-- dispatcher) for a campaign or for one person: a cancel, a stop or an
-- opt-out takes effect at once. A message already being sent cannot be
-- called back. Returns how many were withdrawn.
create function private.broadcast_withdraw(p_org_id uuid, p_campaign_id uuid, p_user_id uuid,
  p_why text)
returns int
language plpgsql security definer set search_path = ''
as $$
declare
  withdrawn int;
begin
  with queued as (
    update public.broadcast_sends s set status = 'withdrawn', updated_at = now()
    where s.org_id = p_org_id and s.status = 'queued'
      and (p_campaign_id is null or s.campaign_id = p_campaign_id)
      and (p_user_id is null or s.user_id = p_user_id)
    returning s.outbox_id
  )
  update public.wa_outbox o
  set status = 'failed', last_error = left(p_why, 200), last_error_code = null, updated_at = now()
  from queued q where o.id = q.outbox_id and o.status = 'queued';
  get diagnostics withdrawn = row_count;
  return withdrawn;
end
$$;
revoke all on function private.broadcast_withdraw(uuid, uuid, uuid, text) from public;

-- What the dispatcher and the status webhooks learn of a campaign message
-- reaches its send row, and Meta's answers that concern the whole campaign
-- act on it at once: 131048 (spam rate limit) holds the campaign for an hour
-- and puts its queued messages off as long; 132015/132016 (template paused,
-- disabled) stop the campaign (which withdraws what is queued), mark the
-- template and open a ticket for staff.
create function private.broadcast_send_outcome() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  send record;
  hold_until timestamptz;
begin
  update public.broadcast_sends s
  set status = case when s.status = 'withdrawn' then s.status else new.status end,
      wamid = coalesce(new.wamid, s.wamid),
      error_code = coalesce(new.last_error_code, s.error_code),
      updated_at = now()
  where s.outbox_id = new.id
  returning s.campaign_id, s.org_id into send;
  if send is null or new.status <> 'failed' or new.last_error_code is null then
    return new;
  end if;
  if new.last_error_code = 131048 then
    -- From when the failure was recorded (the dispatcher's clock, or the webhook's).
    hold_until := new.updated_at + interval '1 hour';
    update public.broadcast_campaigns c set backoff_until = hold_until, updated_at = now()
    where c.id = send.campaign_id and c.status in ('scheduled', 'sending')
      and (c.backoff_until is null or c.backoff_until < hold_until);
    update public.wa_outbox o set next_attempt_at = hold_until, updated_at = now()
    from public.broadcast_sends s
    where s.campaign_id = send.campaign_id and s.status = 'queued' and o.id = s.outbox_id
      and o.status = 'queued';
  elsif new.last_error_code in (132015, 132016) then
    update public.broadcast_templates t
    set meta_status = case when new.last_error_code = 132015 then 'paused' else 'disabled' end,
        updated_at = now()
    from public.broadcast_campaigns c
    where c.id = send.campaign_id and t.org_id = c.org_id and t.id = c.template_id;
    with stopped as (
      update public.broadcast_campaigns c
      set status = 'stopped', updated_at = now(),
          stop_reason = case when new.last_error_code = 132015
            then 'Meta paused the template (132015)' else 'Meta disabled the template (132016)' end
      where c.id = send.campaign_id and c.status in ('scheduled', 'sending')
      returning c.id, c.org_id, c.stop_reason
    )
    insert into public.staff_tickets (org_id, channel, reason, summary, priority)
    select s.org_id, 'inbox', 'Broadcast stopped',
      'Campaign ' || s.id || ' stopped: ' || s.stop_reason ||
      '. Nothing more is sent; fix or replace the template and schedule it again.', 'high'
    from stopped s;
  end if;
  return new;
end
$$;
revoke all on function private.broadcast_send_outcome() from public;

create trigger wa_outbox_broadcast_outcome
  after update of status on public.wa_outbox
  for each row when (old.status is distinct from new.status)
  execute function private.broadcast_send_outcome();

-- A campaign cancelled (by staff, under RLS) or stopped withdraws its queued
-- messages in the same transaction; an opt-out withdraws the person's.
create function private.broadcast_campaign_ended() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.broadcast_withdraw(new.org_id, new.id, null, 'withdrawn: campaign ' || new.status);
  return new;
end
$$;
revoke all on function private.broadcast_campaign_ended() from public;

create trigger broadcast_campaigns_ended
  after update of status on public.broadcast_campaigns
  for each row when (new.status in ('cancelled', 'stopped') and old.status <> new.status)
  execute function private.broadcast_campaign_ended();

create function private.broadcast_opted_out() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.broadcast_withdraw(new.org_id, null, new.user_id, 'withdrawn: opted out');
  return new;
end
$$;
revoke all on function private.broadcast_opted_out() from public;

create trigger marketing_opt_ins_opted_out
  after update of opted_out_at on public.marketing_opt_ins
  for each row when (new.opted_out_at is not null and old.opted_out_at is null)
  execute function private.broadcast_opted_out();
