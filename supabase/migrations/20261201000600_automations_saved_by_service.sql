-- Automations are checked before they are saved (deploy_automation: the
-- event is one the tenant's services offer, the schedule parses, each action
-- is a tool the tenant may use, with arguments it takes). Those checks need
-- the platform's catalog, which the database does not hold; a staff member
-- writing the table through the Data API skipped them. So rules are saved by
-- the service only, after the checks. Staff keep reading their org's rules,
-- deleting them, and pausing or resuming them (status and the next slot):
-- nothing that makes or changes what a rule does.
drop policy automations_insert on public.automations;
revoke insert, update on public.automations from authenticated;
grant update (status, next_run_at, updated_at) on public.automations to authenticated;
