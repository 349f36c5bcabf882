-- What a registration left out, kept with the source: the exposed operations it could not map
-- (`skipped`: operation, JSON pointer, reason) and the tools one export dialect's listings leave
-- out (`not_offered`: tool, dialect, reason). Registration's answer always said so, but only
-- once: staff who did not keep it never learned why a tool is missing from, say, Gemini's
-- listing. `api_source_list` now shows both. Written in the same statement as `document` and
-- `plans`, so they always describe them; null on rows registered before this migration (not
-- recorded: registering again records them).
--
-- The columns follow the row's policies (staff of the org read and write their own sources;
-- other tenants and customers see nothing). They say nothing the document does not.

alter table public.api_sources
  add column skipped jsonb
    constraint api_sources_skipped_check
      check (skipped is null or (jsonb_typeof(skipped) = 'array' and pg_column_size(skipped) <= 256 * 1024)),
  add column not_offered jsonb
    constraint api_sources_not_offered_check
      check (not_offered is null or (jsonb_typeof(not_offered) = 'array' and pg_column_size(not_offered) <= 256 * 1024));

comment on column public.api_sources.skipped is
  'Exposed operations registration could not map: [{operation, path, reason}]; null: not recorded.';
comment on column public.api_sources.not_offered is
  'Tools registered but left out of one export dialect''s listings: [{tool, format, reason}]; null: not recorded.';
