-- Every tool call leaves a row here, so its insert is the platform's busiest
-- write. The foreign key to public.orgs ran a locking lookup for every row
-- (a third of the batch insert's server time), and one row naming an org that
-- no longer exists failed the whole batch: a thousand traces lost for one.
-- The trace writer now keeps a row's org only when it exists (one join per
-- batch, see shared/pipeline/trace_sink.ts), takes ids as text and keeps
-- only well-formed ones (a malformed id failed the batch's cast too), and an
-- org's traces go when the org does, as the cascade did.
alter table public.tool_calls drop constraint tool_calls_org_id_fkey;

create function private.forget_org_traces() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.tool_calls where org_id = old.id;
  return old;
end
$$;
revoke all on function private.forget_org_traces() from public;

create trigger orgs_forget_traces after delete on public.orgs
  for each row execute function private.forget_org_traces();
