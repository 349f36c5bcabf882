-- A video job cancelled while its submission is in flight (issue 28): the
-- poll reads a queued job, calls the provider's create, and a staff member
-- cancels the job before the poll writes the provider's answer. The job stays
-- cancelled (the poll never overwrites it), and the provider job the create
-- made is kept on the row with `provider_discard = 'pending'`: the next sweep
-- deletes it at the provider (DELETE /v1/videos/{id}) and marks it 'done'.
-- Nothing of it is ever read back, downloaded or delivered.
alter table public.video_jobs
  add column provider_discard text
    constraint video_jobs_provider_discard_check check (provider_discard in ('pending', 'done')),
  add constraint video_jobs_provider_discard_cancelled_check
    check (provider_discard is null or (status = 'cancelled' and provider_job_id is not null));

-- The sweep finds what is left to discard without reading every cancelled job.
create index video_jobs_discard_pending_idx on public.video_jobs (org_id)
  where provider_discard = 'pending';
