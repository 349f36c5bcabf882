-- A staff notification whose request went out and got no answer (a Slack
-- webhook that timed out) may have been delivered: the dispatcher never sends
-- it again and marks it `unknown` (last_error says why), so staff check the
-- channel instead of reading it as sent or failed.
alter table public.notification_outbox
  drop constraint notification_outbox_status_check,
  add constraint notification_outbox_status_check
    check (status in ('recorded', 'sent', 'failed', 'unknown'));
