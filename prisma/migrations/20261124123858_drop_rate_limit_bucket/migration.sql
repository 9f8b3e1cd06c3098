/*
  Warnings:

  - You are about to drop the `RateLimitBucket` table. If the table is not empty, all the data it contains will be lost.

*/
-- DropTable
DROP TABLE "RateLimitBucket";

-- Rate limits are counted in memory or Redis now: the recurring job that purged the table goes with it.
DELETE FROM "Job" WHERE "type" = 'purge-rate-limit-buckets';
