-- A person a row names belongs to the row's org (issue 23, item 9a).
--
-- Rows named people by their profile alone (`references public.profiles`),
-- so the schema let a ticket of one org be assigned to another org's staff,
-- a note be signed by them, a payment name them as payer: only application
-- code said otherwise. Every person reference of a table with an org_id now
-- has a composite foreign key `(org_id, person) → org_members (org_id,
-- user_id)` beside its key to the profile: the person is a member of the
-- row's org, whoever writes the row (a customer, staff, the service, the
-- connecting role). A refusal is a foreign key violation (23503) that names
-- the constraint, e.g. staff_tickets_assigned_to_member_fkey, and the key
-- (org_id, assigned_to) missing from org_members.
--
-- Not here: messages.user_id, which its key to the conversation already
-- ties to the conversation's customer (20261123000100), a member through
-- conversations_user_id_member_fkey; and tool_calls.user_id, a trace of who
-- called with no keys at all, on purpose (20261124001400).
--
-- When a person leaves an org (their org_members row goes):
-- - a reference that may be empty is cleared (a ticket's assignee, a
--   shop's owner, who registered a device ...), like deleting the person does;
-- - a reference that may not (the customer of a conversation, order, ride,
--   quote or document, a note's author) and the people of a payment (which
--   changes only its status) keep the membership from being removed while
--   those rows exist (no action). Deleting the org or the person still
--   removes everything, through the rows' own keys to orgs and profiles.
--
-- A database holding a cross-org reference stops at its constraint, which
-- names the row: nothing the platform writes makes one (every path takes the
-- person from the caller or checks the membership), so one found is data to
-- look at, not to clear silently. Each key has its index, for the
-- membership's deletes and Supabase's unindexed-foreign-key advisor.

alter table public.analytics_events
  add constraint analytics_events_user_id_member_fkey
  foreign key (org_id, user_id) references public.org_members (org_id, user_id)
  on delete set null (user_id);
create index analytics_events_org_user_idx on public.analytics_events (org_id, user_id);

alter table public.businesses
  add constraint businesses_owner_user_id_member_fkey
  foreign key (org_id, owner_user_id) references public.org_members (org_id, user_id)
  on delete set null (owner_user_id);
create index businesses_org_owner_user_idx on public.businesses (org_id, owner_user_id);

alter table public.conversations
  add constraint conversations_user_id_member_fkey
  foreign key (org_id, user_id) references public.org_members (org_id, user_id),
  add constraint conversations_assigned_staff_id_member_fkey
  foreign key (org_id, assigned_staff_id) references public.org_members (org_id, user_id)
  on delete set null (assigned_staff_id);
create index conversations_org_user_idx on public.conversations (org_id, user_id);
create index conversations_org_assigned_staff_idx
  on public.conversations (org_id, assigned_staff_id);

alter table public.document_extractions
  add constraint document_extractions_user_id_member_fkey
  foreign key (org_id, user_id) references public.org_members (org_id, user_id);
create index document_extractions_org_user_idx on public.document_extractions (org_id, user_id);

alter table public.drivers
  add constraint drivers_user_id_member_fkey
  foreign key (org_id, user_id) references public.org_members (org_id, user_id)
  on delete set null (user_id);
create index drivers_org_user_idx on public.drivers (org_id, user_id);

alter table public.insurance_quotes
  add constraint insurance_quotes_customer_id_member_fkey
  foreign key (org_id, customer_id) references public.org_members (org_id, user_id);
create index insurance_quotes_org_customer_idx on public.insurance_quotes (org_id, customer_id);

alter table public.market_vendor_feedback
  add constraint market_vendor_feedback_user_id_member_fkey
  foreign key (org_id, user_id) references public.org_members (org_id, user_id)
  on delete set null (user_id);
create index market_vendor_feedback_org_user_idx on public.market_vendor_feedback (org_id, user_id);

alter table public.market_vendor_inquiries
  add constraint market_vendor_inquiries_user_id_member_fkey
  foreign key (org_id, user_id) references public.org_members (org_id, user_id)
  on delete set null (user_id);
create index market_vendor_inquiries_org_user_idx
  on public.market_vendor_inquiries (org_id, user_id);

alter table public.notification_outbox
  add constraint notification_outbox_created_by_member_fkey
  foreign key (org_id, created_by) references public.org_members (org_id, user_id)
  on delete set null (created_by);
create index notification_outbox_org_created_by_idx
  on public.notification_outbox (org_id, created_by);

alter table public.orders
  add constraint orders_customer_id_member_fkey
  foreign key (org_id, customer_id) references public.org_members (org_id, user_id);
create index orders_org_customer_idx on public.orders (org_id, customer_id);

alter table public.payment_events
  add constraint payment_events_actor_user_id_member_fkey
  foreign key (org_id, actor_user_id) references public.org_members (org_id, user_id)
  on delete set null (actor_user_id);
create index payment_events_org_actor_user_idx on public.payment_events (org_id, actor_user_id);

alter table public.payments
  add constraint payments_created_by_member_fkey
  foreign key (org_id, created_by) references public.org_members (org_id, user_id),
  add constraint payments_payer_id_member_fkey
  foreign key (org_id, payer_id) references public.org_members (org_id, user_id),
  add constraint payments_settled_by_user_id_member_fkey
  foreign key (org_id, settled_by_user_id) references public.org_members (org_id, user_id);
create index payments_org_created_by_idx on public.payments (org_id, created_by);
create index payments_org_payer_idx on public.payments (org_id, payer_id);
create index payments_org_settled_by_user_idx on public.payments (org_id, settled_by_user_id);

alter table public.reservations
  add constraint reservations_customer_id_member_fkey
  foreign key (org_id, customer_id) references public.org_members (org_id, user_id)
  on delete set null (customer_id);
create index reservations_org_customer_idx on public.reservations (org_id, customer_id);

alter table public.ride_requests
  add constraint ride_requests_rider_id_member_fkey
  foreign key (org_id, rider_id) references public.org_members (org_id, user_id);
create index ride_requests_org_rider_idx on public.ride_requests (org_id, rider_id);

alter table public.sms_forwarders
  add constraint sms_forwarders_created_by_member_fkey
  foreign key (org_id, created_by) references public.org_members (org_id, user_id)
  on delete set null (created_by);
create index sms_forwarders_org_created_by_idx on public.sms_forwarders (org_id, created_by);

alter table public.sms_inbox
  add constraint sms_inbox_resolved_by_user_id_member_fkey
  foreign key (org_id, resolved_by_user_id) references public.org_members (org_id, user_id)
  on delete set null (resolved_by_user_id);
create index sms_inbox_org_resolved_by_user_idx on public.sms_inbox (org_id, resolved_by_user_id);

alter table public.staff_tickets
  add constraint staff_tickets_requester_user_id_member_fkey
  foreign key (org_id, requester_user_id) references public.org_members (org_id, user_id)
  on delete set null (requester_user_id),
  add constraint staff_tickets_assigned_to_member_fkey
  foreign key (org_id, assigned_to) references public.org_members (org_id, user_id)
  on delete set null (assigned_to);
create index staff_tickets_org_requester_user_idx
  on public.staff_tickets (org_id, requester_user_id);
create index staff_tickets_org_assigned_to_idx on public.staff_tickets (org_id, assigned_to);

alter table public.ticket_notes
  add constraint ticket_notes_author_id_member_fkey
  foreign key (org_id, author_id) references public.org_members (org_id, user_id);
create index ticket_notes_org_author_idx on public.ticket_notes (org_id, author_id);
