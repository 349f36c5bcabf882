-- A deferred MCP task whose tool needs confirmation (issue 28): the person
-- confirms before the task is queued (in their client, or with the token a
-- direct call hands back), and the task keeps the pipeline's token so that
-- its run, here or on another instance after a restart, is the confirmed
-- call and no other. The run passes it to the pipeline, which checks it
-- (bound to the tool, the caller, the arguments and the key, and expiring):
-- a task never runs unconfirmed. Cleared once the run has answered.
alter table public.tool_tasks add column confirmation text
  check (confirmation is null or length(confirmation) <= 2000);
