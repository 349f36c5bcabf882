-- Buy & sell concierge (seed 000, section H): vendor inquiries sent on a
-- buyer's behalf, the vendors' replies, feedback, vendor quality metrics;
-- and orders for vendors that keep stock.

alter table public.businesses
  add column owner_whatsapp text check (owner_whatsapp ~ '^[0-9]{6,15}$'),
  add column inquiry_count int not null default 0,
  add column reply_count int not null default 0,
  add column response_rate double precision,
  add column response_time_avg_sec int,
  add column feedback_count int not null default 0,
  add column accurate_count int not null default 0,
  add column confirmation_accuracy double precision;
create index businesses_owner_whatsapp_idx on public.businesses (owner_whatsapp);
create index businesses_tags_idx on public.businesses using gin (tags);

create table public.market_vendor_inquiries (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete set null,
  user_phone text not null check (user_phone ~ '^\+[1-9][0-9]{7,14}$'),
  request_type text not null check (request_type in ('product', 'service', 'medicine')),
  request_summary text not null check (length(request_summary) between 1 and 500),
  structured_payload jsonb not null default '{}'::jsonb,
  user_lat double precision check (user_lat between -90 and 90),
  user_lng double precision check (user_lng between -180 and 180),
  language text not null default 'en' check (language in ('en', 'rw', 'fr')),
  expires_at timestamptz not null,
  trace_id text,
  created_at timestamptz not null default now()
);
create index market_vendor_inquiries_org_id_idx on public.market_vendor_inquiries (org_id, created_at);
create index market_vendor_inquiries_user_id_idx on public.market_vendor_inquiries (user_id);

create table public.market_vendor_inquiry_messages (
  id uuid primary key default gen_random_uuid(),
  inquiry_id uuid not null references public.market_vendor_inquiries (id) on delete cascade,
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete cascade,
  vendor_wa_id text not null check (vendor_wa_id ~ '^[0-9]{6,15}$'),
  outbox_id uuid references public.wa_outbox (id) on delete set null,
  sent_at timestamptz not null default now(),
  reply_status text not null default 'pending' check (reply_status in ('pending', 'yes', 'no', 'other')),
  price bigint check (price >= 0),
  quantity int check (quantity >= 0),
  reply_text text,
  reply_wamid text unique,
  replied_at timestamptz,
  -- A reply that came after the inquiry expired: recorded, not counted.
  late boolean not null default false,
  unique (inquiry_id, business_id)
);
create index market_vendor_inquiry_messages_org_id_idx on public.market_vendor_inquiry_messages (org_id);
create index market_vendor_inquiry_messages_business_id_idx on public.market_vendor_inquiry_messages (business_id);
create index market_vendor_inquiry_messages_vendor_idx
  on public.market_vendor_inquiry_messages (vendor_wa_id, sent_at desc);
create index market_vendor_inquiry_messages_outbox_id_idx on public.market_vendor_inquiry_messages (outbox_id);

create table public.market_vendor_feedback (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete cascade,
  inquiry_id uuid references public.market_vendor_inquiries (id) on delete set null,
  user_id uuid references public.profiles (id) on delete set null,
  feedback_type text not null check (feedback_type in ('accurate', 'inaccurate', 'cancelled', 'complaint')),
  rating int check (rating between 1 and 5),
  comment text check (length(comment) <= 1000),
  created_at timestamptz not null default now()
);
create index market_vendor_feedback_org_id_idx on public.market_vendor_feedback (org_id);
create index market_vendor_feedback_business_id_idx on public.market_vendor_feedback (business_id);
create index market_vendor_feedback_inquiry_id_idx on public.market_vendor_feedback (inquiry_id);
create index market_vendor_feedback_user_id_idx on public.market_vendor_feedback (user_id);

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete restrict,
  customer_id uuid not null references public.profiles (id) on delete restrict,
  status text not null default 'pending'
    check (status in ('pending', 'confirmed', 'preparing', 'ready', 'delivered', 'cancelled')),
  total bigint not null check (total >= 0),
  currency text not null default 'RWF',
  table_no text,
  notes text check (length(notes) <= 500),
  trace_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index orders_org_id_idx on public.orders (org_id, created_at);
create index orders_business_id_idx on public.orders (business_id);
create index orders_customer_id_idx on public.orders (customer_id);

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  org_id uuid not null references public.orgs (id) on delete cascade,
  product_id uuid not null references public.products (id) on delete restrict,
  sku text not null,
  name text not null,
  qty int not null check (qty > 0),
  unit_price bigint not null check (unit_price >= 0),
  line_total bigint not null check (line_total >= 0)
);
create index order_items_order_id_idx on public.order_items (order_id);
create index order_items_org_id_idx on public.order_items (org_id);
create index order_items_product_id_idx on public.order_items (product_id);

alter table public.market_vendor_inquiries enable row level security;
alter table public.market_vendor_inquiry_messages enable row level security;
alter table public.market_vendor_feedback enable row level security;
alter table public.orders enable row level security;
alter table public.order_items enable row level security;

-- Buyers see their own inquiries and replies; staff see their org's.
create policy market_vendor_inquiries_select on public.market_vendor_inquiries for select
  to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy market_vendor_inquiry_messages_select on public.market_vendor_inquiry_messages
  for select to authenticated
  using (
    org_id in (select private.my_staff_org_ids())
    or inquiry_id in (select i.id from public.market_vendor_inquiries i
                      where i.user_id = (select auth.uid()))
  );
create policy market_vendor_feedback_select on public.market_vendor_feedback for select
  to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy market_vendor_feedback_insert on public.market_vendor_feedback for insert
  to authenticated
  with check (user_id = (select auth.uid()) and org_id in (select private.my_org_ids()));

-- Customers see and place their own orders; the shop's owner and staff see the shop's.
create policy orders_select on public.orders for select to authenticated
  using (
    customer_id = (select auth.uid())
    or org_id in (select private.my_staff_org_ids())
    or business_id in (select b.id from public.businesses b where b.owner_user_id = (select auth.uid()))
  );
create policy orders_insert on public.orders for insert to authenticated
  with check (customer_id = (select auth.uid()) and org_id in (select private.my_org_ids()));
create policy order_items_select on public.order_items for select to authenticated
  using (order_id in (select o.id from public.orders o));
create policy order_items_insert on public.order_items for insert to authenticated
  with check (order_id in (select o.id from public.orders o where o.customer_id = (select auth.uid())));

-- Vendor quality, recomputed from the facts (inquiries sent, replies,
-- feedback) rather than counters, so a replayed or late event cannot skew it.
-- Security definer: buyers and vendors may trigger a refresh but not write
-- businesses themselves.
create function private.refresh_vendor_metrics(p_business_id uuid) returns void
language sql volatile security definer set search_path = ''
as $$
  update public.businesses b set
    inquiry_count = m.sent,
    reply_count = m.replied,
    response_rate = case when m.sent > 0 then m.replied::double precision / m.sent end,
    response_time_avg_sec = m.avg_sec,
    feedback_count = f.rated,
    accurate_count = f.accurate,
    confirmation_accuracy = case when f.rated > 0 then f.accurate::double precision / f.rated end
  from (
    select count(*)::int as sent,
           count(*) filter (where replied_at is not null)::int as replied,
           round(avg(extract(epoch from (replied_at - sent_at)))
             filter (where replied_at is not null))::int as avg_sec
    from public.market_vendor_inquiry_messages where business_id = p_business_id
  ) m,
  (
    select count(*) filter (where feedback_type in ('accurate', 'inaccurate'))::int as rated,
           count(*) filter (where feedback_type = 'accurate')::int as accurate
    from public.market_vendor_feedback where business_id = p_business_id
  ) f
  where b.id = p_business_id
$$;
revoke all on function private.refresh_vendor_metrics(uuid) from public;
grant execute on function private.refresh_vendor_metrics(uuid) to authenticated, service_role;

-- Tells a venue about a new order through the WhatsApp outbox. Customers may
-- not write the outbox, so this definer function does it for their own
-- orders only, with a fixed message.
create function private.notify_venue_of_order(p_order_id uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_order record;
  v_lines text;
  v_id uuid;
begin
  select o.id, o.org_id, o.total, o.currency, o.table_no, o.notes, b.owner_whatsapp
    into v_order
  from public.orders o join public.businesses b on b.id = o.business_id
  where o.id = p_order_id and o.customer_id = (select auth.uid());
  if not found or v_order.owner_whatsapp is null then
    return null;
  end if;
  select string_agg(i.qty || ' × ' || i.name, E'\n' order by i.name) into v_lines
  from public.order_items i where i.order_id = p_order_id;
  insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
  values (
    v_order.org_id, v_order.owner_whatsapp, 'text',
    jsonb_build_object('type', 'text', 'text', jsonb_build_object('body',
      'EasyMO: new order ' || left(v_order.id::text, 8) ||
      coalesce(' for table ' || v_order.table_no, '') || E'\n' || v_lines ||
      E'\nTotal: ' || v_order.total || ' ' || v_order.currency ||
      coalesce(E'\nNote: ' || v_order.notes, ''))),
    'order:' || v_order.id
  )
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function private.notify_venue_of_order(uuid) from public;
grant execute on function private.notify_venue_of_order(uuid) to authenticated, service_role;
