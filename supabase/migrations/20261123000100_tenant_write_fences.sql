-- Writes are fenced by the schema, not only by tool code (issue 10, item 5).
--
-- Two layers:
-- 1. Composite foreign keys `(org_id, ref_id) → t (org_id, id)` on every row
--    that carries an org_id and references another tenant-owned row, so a row
--    of one org can never point at a row of another, whoever writes it
--    (customer, staff, service code, the connecting role). A transcript row
--    also carries its conversation's customer, so it cannot be filed under
--    someone else's conversation.
-- 2. Restrictive RLS policies (ANDed with the existing permissive ones) for
--    references inside one org that belong to one person: a customer may
--    point only at their own conversation, ticket, inquiry or order; staff and
--    admins may point at any row of their org. The checks run in security
--    definer helpers, so they do not depend on (or recurse into) the
--    referenced table's select policies.
--
-- The single-column foreign keys stay: they carry the existing delete rules
-- and their indexes serve lookups by the reference alone.

-- Referenced keys -------------------------------------------------------------

alter table public.conversations
  add constraint conversations_org_id_id_key unique (org_id, id),
  add constraint conversations_org_id_id_user_id_key unique (org_id, id, user_id);
alter table public.staff_tickets add constraint staff_tickets_org_id_id_key unique (org_id, id);
alter table public.businesses add constraint businesses_org_id_id_key unique (org_id, id);
alter table public.products add constraint products_org_id_id_key unique (org_id, id);
alter table public.orders add constraint orders_org_id_id_key unique (org_id, id);
alter table public.market_vendor_inquiries
  add constraint market_vendor_inquiries_org_id_id_key unique (org_id, id);
alter table public.wa_outbox add constraint wa_outbox_org_id_id_key unique (org_id, id);

-- Same-org references, for every role ------------------------------------------
-- Delete rules mirror the single-column keys; `set null (col)` clears only the
-- reference, never the row's org_id.

alter table public.messages
  add constraint messages_conversation_same_org_user_fkey
  foreign key (org_id, conversation_id, user_id)
  references public.conversations (org_id, id, user_id) on delete cascade;
create index messages_org_conversation_user_idx
  on public.messages (org_id, conversation_id, user_id);

alter table public.staff_tickets
  add constraint staff_tickets_convo_same_org_fkey
  foreign key (org_id, convo_id)
  references public.conversations (org_id, id) on delete set null (convo_id);
create index staff_tickets_org_convo_idx on public.staff_tickets (org_id, convo_id);

alter table public.notification_outbox
  add constraint notification_outbox_ticket_same_org_fkey
  foreign key (org_id, ticket_id)
  references public.staff_tickets (org_id, id) on delete cascade;
create index notification_outbox_org_ticket_idx on public.notification_outbox (org_id, ticket_id);

alter table public.analytics_events
  add constraint analytics_events_convo_same_org_fkey
  foreign key (org_id, convo_id)
  references public.conversations (org_id, id) on delete set null (convo_id);
create index analytics_events_org_convo_idx on public.analytics_events (org_id, convo_id);

alter table public.ticket_notes
  add constraint ticket_notes_ticket_same_org_fkey
  foreign key (org_id, ticket_id)
  references public.staff_tickets (org_id, id) on delete cascade;
create index ticket_notes_org_ticket_idx on public.ticket_notes (org_id, ticket_id);

alter table public.products
  add constraint products_business_same_org_fkey
  foreign key (org_id, business_id)
  references public.businesses (org_id, id) on delete cascade;
create index products_org_business_idx on public.products (org_id, business_id);

alter table public.wa_outbox
  add constraint wa_outbox_conversation_same_org_fkey
  foreign key (org_id, conversation_id)
  references public.conversations (org_id, id) on delete set null (conversation_id);
create index wa_outbox_org_conversation_idx on public.wa_outbox (org_id, conversation_id);

alter table public.market_vendor_inquiry_messages
  add constraint market_vendor_inquiry_messages_inquiry_same_org_fkey
  foreign key (org_id, inquiry_id)
  references public.market_vendor_inquiries (org_id, id) on delete cascade,
  add constraint market_vendor_inquiry_messages_business_same_org_fkey
  foreign key (org_id, business_id)
  references public.businesses (org_id, id) on delete cascade,
  add constraint market_vendor_inquiry_messages_outbox_same_org_fkey
  foreign key (org_id, outbox_id)
  references public.wa_outbox (org_id, id) on delete set null (outbox_id);
create index market_vendor_inquiry_messages_org_inquiry_idx
  on public.market_vendor_inquiry_messages (org_id, inquiry_id);
create index market_vendor_inquiry_messages_org_business_idx
  on public.market_vendor_inquiry_messages (org_id, business_id);
create index market_vendor_inquiry_messages_org_outbox_idx
  on public.market_vendor_inquiry_messages (org_id, outbox_id);

alter table public.market_vendor_feedback
  add constraint market_vendor_feedback_business_same_org_fkey
  foreign key (org_id, business_id)
  references public.businesses (org_id, id) on delete cascade,
  add constraint market_vendor_feedback_inquiry_same_org_fkey
  foreign key (org_id, inquiry_id)
  references public.market_vendor_inquiries (org_id, id) on delete set null (inquiry_id);
create index market_vendor_feedback_org_business_idx
  on public.market_vendor_feedback (org_id, business_id);
create index market_vendor_feedback_org_inquiry_idx
  on public.market_vendor_feedback (org_id, inquiry_id);

alter table public.orders
  add constraint orders_business_same_org_fkey
  foreign key (org_id, business_id)
  references public.businesses (org_id, id) on delete restrict;
create index orders_org_business_idx on public.orders (org_id, business_id);

alter table public.order_items
  add constraint order_items_order_same_org_fkey
  foreign key (org_id, order_id)
  references public.orders (org_id, id) on delete cascade,
  add constraint order_items_product_same_org_fkey
  foreign key (org_id, product_id)
  references public.products (org_id, id) on delete restrict;
create index order_items_org_order_idx on public.order_items (org_id, order_id);
create index order_items_org_product_idx on public.order_items (org_id, product_id);

-- Whose rows a caller may point at ----------------------------------------------
-- Each answers: does the row exist in this org, and is it the caller's own or
-- is the caller staff (or admin) there? Anonymous callers (no uid) never pass.

create function private.may_reference_conversation(p_org_id uuid, p_convo_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    where c.id = p_convo_id and c.org_id = p_org_id
      and (c.user_id = (select auth.uid()) or c.org_id in (select private.my_staff_org_ids()))
  )
$$;

create function private.may_reference_ticket(p_org_id uuid, p_ticket_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.staff_tickets t
    where t.id = p_ticket_id and t.org_id = p_org_id
      and (t.requester_user_id = (select auth.uid())
           or t.org_id in (select private.my_staff_org_ids()))
  )
$$;

create function private.may_reference_inquiry(p_org_id uuid, p_inquiry_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.market_vendor_inquiries i
    where i.id = p_inquiry_id and i.org_id = p_org_id
      and (i.user_id = (select auth.uid()) or i.org_id in (select private.my_staff_org_ids()))
  )
$$;

-- An order line: the caller's own order, and a product of that order's shop.
create function private.may_add_order_item(p_org_id uuid, p_order_id uuid, p_product_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.orders o
    join public.products p on p.business_id = o.business_id and p.org_id = o.org_id
    where o.id = p_order_id and o.org_id = p_org_id and p.id = p_product_id
      and o.customer_id = (select auth.uid())
  )
$$;

-- A product may be moved only to a shop the caller owns, or by staff of the org.
create function private.may_stock_business(p_org_id uuid, p_business_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.businesses b
    where b.id = p_business_id and b.org_id = p_org_id
      and (b.owner_user_id = (select auth.uid())
           or b.org_id in (select private.my_staff_org_ids()))
  )
$$;

revoke all on function private.may_reference_conversation(uuid, uuid) from public;
revoke all on function private.may_reference_ticket(uuid, uuid) from public;
revoke all on function private.may_reference_inquiry(uuid, uuid) from public;
revoke all on function private.may_add_order_item(uuid, uuid, uuid) from public;
revoke all on function private.may_stock_business(uuid, uuid) from public;
grant execute on function private.may_reference_conversation(uuid, uuid) to authenticated, service_role;
grant execute on function private.may_reference_ticket(uuid, uuid) to authenticated, service_role;
grant execute on function private.may_reference_inquiry(uuid, uuid) to authenticated, service_role;
grant execute on function private.may_add_order_item(uuid, uuid, uuid) to authenticated, service_role;
grant execute on function private.may_stock_business(uuid, uuid) to authenticated, service_role;

-- Restrictive policies: every write must also pass these ----------------------

create policy staff_tickets_insert_refs on public.staff_tickets
  as restrictive for insert to authenticated
  with check (convo_id is null or private.may_reference_conversation(org_id, convo_id));
create policy staff_tickets_update_refs on public.staff_tickets
  as restrictive for update to authenticated
  using (true)
  with check (convo_id is null or private.may_reference_conversation(org_id, convo_id));

create policy analytics_events_insert_refs on public.analytics_events
  as restrictive for insert to authenticated
  with check (convo_id is null or private.may_reference_conversation(org_id, convo_id));

create policy notification_outbox_insert_refs on public.notification_outbox
  as restrictive for insert to authenticated
  with check (ticket_id is null or private.may_reference_ticket(org_id, ticket_id));

create policy market_vendor_feedback_insert_refs on public.market_vendor_feedback
  as restrictive for insert to authenticated
  with check (inquiry_id is null or private.may_reference_inquiry(org_id, inquiry_id));

create policy order_items_insert_refs on public.order_items
  as restrictive for insert to authenticated
  with check (private.may_add_order_item(org_id, order_id, product_id));

create policy products_update_refs on public.products
  as restrictive for update to authenticated
  using (true)
  with check (private.may_stock_business(org_id, business_id));
