-- AlterTable
ALTER TABLE "human_judgment" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'typed';

-- Back-fill: the scores a presence-first queue stored because the reviewer marked their category absent.
-- Such a value was never asked, so it is implied, not typed. It can be told apart after the fact when all of
-- these hold (the submit rule of lib/queues/queues.ts): the judgment is of a score and holds the absent value 0
-- of the only task that declares presence (hallucination); the same reviewer's current presence judgment of
-- that category in that video is 0 (absent); the reviewer submitted that video in a presence-first queue of
-- scores covering the category (none chosen: all); and there the judge's presence was hidden (a blind queue)
-- or absent too (its highest score of the category in the queue's run below the declared t = 5), so the
-- values were not asked. Anything else stays 'typed'.
UPDATE "human_judgment" h SET "origin" = 'implied_by_absence'
WHERE h."targetType" = 'score' AND h."task" = 'hallucination' AND h."value" = 0 AND NOT h."withdrawn" AND h."labelSetId" IS NULL
  AND EXISTS (
    SELECT 1 FROM "human_judgment" p
    WHERE p."targetType" = 'presence' AND p."task" = h."task" AND p."videoId" = h."videoId" AND p."itemId" = ''
      AND p."target" = h."target" AND p."reviewerId" = h."reviewerId" AND p."value" = 0 AND NOT p."withdrawn"
  )
  AND EXISTS (
    SELECT 1 FROM "review_queue" q
    JOIN "review_queue_item" i ON i."queueId" = q."id" AND i."videoId" = h."videoId" AND i."itemId" = ''
    JOIN "review_queue_assignment" a ON a."itemId" = i."id" AND a."reviewerId" = h."reviewerId" AND a."status" = 'done'
    WHERE q."scope" = 'scores' AND q."mode" = 'presence'
      AND (cardinality(q."categories") = 0 OR h."target" = ANY(q."categories"))
      AND (q."blind" OR coalesce((
        SELECT max(s."value") FROM "score" s WHERE s."runId" = q."runId" AND s."videoId" = h."videoId" AND s."itemId" = '' AND s."category" = h."target"
      ), 0) < 5)
  );
