-- Read-only tool calls cost one round trip: the pipeline sends the rate-limit
-- take (autocommitted, as the connecting role, so no bucket row stays locked
-- while the tool runs) and the call's transaction in one flight, without
-- waiting for the take's answer. The take leaves its grant in the session
-- setting easymo.rate_grant; this guard, run first inside the transaction,
-- aborts it when nothing was granted, so a refused caller's query never runs.
-- The pipeline decides from the take's own answer; the guard only spares the
-- database the work. Transaction-local settings (role, claims) are untouched.
create function private.require_rate_grant() returns void
language plpgsql volatile set search_path = ''
as $$
begin
  if coalesce(nullif(current_setting('easymo.rate_grant', true), ''), '0')::int < 1 then
    raise exception 'rate limited' using errcode = 'P0429';
  end if;
end
$$;

revoke all on function private.require_rate_grant() from public;
