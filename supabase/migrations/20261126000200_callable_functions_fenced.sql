-- No function a caller can execute acts on another tenant (issue 23, item 5).
--
-- private.refresh_vendor_metrics(business_id) runs as its owner and rewrote
-- the metrics of any business it was given, whoever asked: a customer of one
-- org could recompute another org's vendors (21 cross-tenant writes in an
-- audit of 2,287 probes, all through it). It now touches a business only
-- for a member of the business's org or the service, like the other definer
-- functions (private.venue_slot_usage, private.drivers_near): for anyone
-- else it changes nothing, and says nothing about whether the business
-- exists. Its three callers are unchanged: log_user_feedback_on_vendor
-- (the buyer, a member of the org) and the inquiry and reply tools (the
-- service).
--
-- Trigger functions were executable by PUBLIC (so by anon and
-- authenticated) for no reason: a trigger fires whatever its function's
-- grants, and nobody calls one directly. They are revoked so the list of
-- what callers may execute holds only what they need
-- (shared/db/callable_functions_test.ts keeps it that way).

create or replace function private.refresh_vendor_metrics(p_business_id uuid) returns void
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
    and (b.org_id in (select private.my_org_ids()) or (select auth.role()) = 'service_role')
$$;

revoke all on function private.check_insurance_quote() from public;
revoke all on function private.guard_insurance_tariff_change() from public;
revoke all on function private.guard_order_update() from public;
revoke all on function private.guard_ride_update() from public;
revoke all on function private.guard_tariff_change() from public;
revoke all on function private.touch_updated_at() from public;
