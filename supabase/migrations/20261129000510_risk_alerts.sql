-- Analytics & Risk: the anomalies it found in an org's analytics events and
-- raised to staff. One row per anomaly raised: the scheduled check adds a row
-- only when no anomaly of the same kind was raised in the last 24 hours, so
-- the same drop or spike is not raised on every sweep, and records the staff
-- ticket it opened (a row without one is still to be raised, after a crash).

create table public.risk_alerts (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  kind text not null
    check (kind in ('vendor_response_drop', 'payment_failures', 'handoff_spike')),
  -- The figures that tripped it (rates, counts, the window).
  detail jsonb not null default '{}'::jsonb,
  raised_at timestamptz not null,
  ticket_id uuid references public.staff_tickets (id) on delete set null,
  created_at timestamptz not null default now()
);
create index risk_alerts_org_kind_idx on public.risk_alerts (org_id, kind, raised_at);
create index risk_alerts_ticket_id_idx on public.risk_alerts (ticket_id);

alter table public.risk_alerts enable row level security;

-- Staff read their org's; only the service (the scheduled check) writes.
create policy risk_alerts_select on public.risk_alerts for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
