-- A viewing's reminder is due at a moment stored with it (issue 24/27 play):
-- the sweep used to remind every viewing starting within a day, so one booked
-- this morning for this afternoon got its "reminder" right after its
-- confirmation. The writer that books or moves a viewing sets `remind_at` from
-- its clock (shared/packs/property/viewing_reminder.ts): the day before, or a
-- couple of hours before for a viewing booked the same day, or null when the
-- viewing is too close for a reminder to be anything but a repeat.
alter table public.property_viewings add column remind_at timestamptz;

-- Viewings booked before this column keep the rule they were booked under.
update public.property_viewings
set remind_at = starts_at - interval '24 hours'
where status = 'booked' and reminded_at is null;

drop index public.property_viewings_due_idx;
create index property_viewings_due_idx on public.property_viewings (org_id, remind_at)
  where status = 'booked' and reminded_at is null and remind_at is not null;
