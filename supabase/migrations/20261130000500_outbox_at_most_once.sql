-- Broadcasts at most once, or reconciled (issue 27): a campaign message whose
-- process died after Meta accepted it but before its wamid was saved is left
-- `sending`. Resending it blindly would send it twice, so such a row
-- (`at_most_once`) is never requeued by the dispatcher's recovery: a status
-- webhook for the recipient reconciles it (its wamid, its status), and when
-- none arrives within the bound it is marked `unconfirmed` (failed, not
-- resent) and its campaign send reads `unknown`, which staff see in the
-- campaign's status. Other messages keep at-least-once recovery.
alter table public.wa_outbox
  add column at_most_once boolean not null default false,
  add column unconfirmed boolean not null default false;

-- The reconciliation's lookup: a recipient's in-flight message with no wamid.
create index wa_outbox_unreconciled_idx on public.wa_outbox (to_wa_id, created_at)
  where at_most_once and wamid is null;

alter table public.broadcast_sends drop constraint broadcast_sends_status_check;
alter table public.broadcast_sends add constraint broadcast_sends_status_check
  check (status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'withdrawn',
                    'unknown'));

-- After `wa_outbox_broadcast_outcome` (triggers of one event run by name): that one copied the
-- row's `failed`; an unconfirmed message is not known to have failed, so its send reads `unknown`.
create function private.broadcast_send_unconfirmed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.broadcast_sends s set status = 'unknown', updated_at = now()
  where s.outbox_id = new.id and s.status <> 'withdrawn';
  return new;
end
$$;
revoke all on function private.broadcast_send_unconfirmed() from public;

create trigger wa_outbox_broadcast_unconfirmed
  after update of unconfirmed on public.wa_outbox
  for each row when (new.unconfirmed and not old.unconfirmed)
  execute function private.broadcast_send_unconfirmed();
