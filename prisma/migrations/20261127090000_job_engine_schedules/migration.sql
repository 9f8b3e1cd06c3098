-- The hourly purges are the job engine's schedules now (src/jobs/engine.ts, schema pgboss): the rows the polling
-- runner kept for them (fixed ids job_recurring_<type>) are no longer anyone's.
DELETE FROM "Job" WHERE "id" LIKE 'job_recurring_%';
