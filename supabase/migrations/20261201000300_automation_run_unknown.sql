-- An automation run whose outcome is unknown: an action sent its request to an outside service
-- (Slack) and got no answer, so it may have been done. The run is not retried (that could do it
-- twice); staff see it as `unknown` in automation_runs and check by hand.
alter table public.automation_runs drop constraint automation_runs_status_check;
alter table public.automation_runs add constraint automation_runs_status_check
  check (status in ('running', 'succeeded', 'failed', 'unknown', 'skipped'));
