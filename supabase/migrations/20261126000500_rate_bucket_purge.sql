-- Idle rate buckets are forgotten. Every caller of every tool leaves a row in
-- private.rate_buckets (a day of new WhatsApp customers at 20 messages a
-- second is well over a million), and nothing deleted them. A bucket idle
-- for a day, the longest window a limit may have, is full again: deleting it
-- changes no answer, the next take creates it full. The `agent` function's
-- sweep (scheduled by pg_cron deployed, a loop in long-running hosts) calls
-- this in batches.

-- Deletes up to p_limit buckets idle for more than a day (oldest first, along
-- rate_buckets_updated_at_idx); skips rows a take holds at that moment.
-- Returns how many it deleted: p_limit means there may be more.
create function private.purge_idle_rate_buckets(p_limit int default 10000)
returns int
language sql volatile set search_path = ''
as $$
  with idle as (
    select b.org_id, b.tool, b.subject from private.rate_buckets b
    where b.updated_at < now() - interval '1 day'
    order by b.updated_at
    limit greatest(p_limit, 0)
    for update skip locked
  ), deleted as (
    delete from private.rate_buckets b
    using idle
    where b.org_id = idle.org_id and b.tool = idle.tool and b.subject = idle.subject
    returning 1
  )
  select count(*)::int from deleted
$$;

revoke all on function private.purge_idle_rate_buckets(int) from public;
