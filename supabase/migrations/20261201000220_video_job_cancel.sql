-- A video job not yet sent to the provider can be cancelled by the org's staff
-- (video_job_cancel, and MCP tasks/cancel on a sora_generate_video task): its
-- status becomes 'cancelled' and the poll never submits it. Staff change only
-- the status and its time, only from queued-and-unsubmitted to cancelled; the
-- rest stays the poll's (the service's) to write.
alter table public.video_jobs drop constraint video_jobs_status_check;
alter table public.video_jobs add constraint video_jobs_status_check
  check (status in ('queued', 'processing', 'complete', 'failed', 'cancelled'));

create policy video_jobs_cancel on public.video_jobs for update to authenticated
  using (
    org_id in (select v.org_id from private.my_staff_memberships v)
    and status = 'queued' and provider_job_id is null
  )
  with check (
    org_id in (select v.org_id from private.my_staff_memberships v)
    and status = 'cancelled' and provider_job_id is null
  );
grant update (status, updated_at) on public.video_jobs to authenticated;
