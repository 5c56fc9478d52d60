-- Human judgments belong to what was judged, not to a run: a judgment is keyed by (task, subject,
-- target, scope, reviewer). Every existing row keeps its value, note, reason, version and history.
-- A reviewer who judged the same target in two runs had two judgments; they become one, the most
-- recently saved, with both histories in order (no history row is lost).

ALTER TABLE "human_judgment"
  ADD COLUMN "task" TEXT,
  ADD COLUMN "target" TEXT,
  ADD COLUMN "itemId" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "stepId" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "scopeIndex" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "frameSetId" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "gap" DOUBLE PRECISION,
  ALTER COLUMN "runId" DROP NOT NULL;

-- Scores: the score's category at its step and scope. Until now only the hallucination pipeline had
-- reviewed scores: its key-frame and cluster steps are frame scopes (of the run's frame set), its
-- inconsistency step is the whole video. Item scores are about the item, whatever its position.
UPDATE "human_judgment" h SET
  "task" = r."pipeline",
  "target" = s."category",
  "itemId" = s."itemId",
  "stepId" = s."stepId",
  "scopeIndex" = CASE WHEN s."itemId" <> '' THEN 0 ELSE s."scopeIndex" END,
  "frameSetId" = CASE WHEN s."itemId" = '' AND s."stepId" IN ('static_hallucination', 'dynamic_hallucination') THEN rv."frameSetId" ELSE '' END,
  "gap" = CASE WHEN r."pipeline" = 'hallucination' THEN 2 ELSE 1 END
FROM "score" s
JOIN "judge_run" r ON r."id" = s."runId"
JOIN "run_video" rv ON rv."runId" = s."runId" AND rv."videoId" = s."videoId"
WHERE h."targetType" = 'score' AND h."scoreId" = s."id";

-- Per-video metrics (verdict 1/0, overall 0-100) of the run's task.
UPDATE "human_judgment" h SET
  "task" = r."pipeline",
  "target" = h."targetType",
  "gap" = CASE WHEN h."targetType" = 'overall' THEN 10 WHEN h."targetType" = 'verdict' THEN 1 ELSE 1 END
FROM "judge_run" r
WHERE h."targetType" <> 'score' AND r."id" = h."runId";

-- A judgment whose score or run no longer exists keeps its old key: nothing to compare it with.
UPDATE "human_judgment" SET "task" = 'hallucination', "target" = "targetType", "gap" = CASE WHEN "targetType" = 'overall' THEN 10 WHEN "targetType" = 'verdict' THEN 1 ELSE 2 END
WHERE "task" IS NULL;

ALTER TABLE "human_judgment" ADD COLUMN "newKey" TEXT;
UPDATE "human_judgment" SET "newKey" = CASE
  WHEN "targetType" = 'score' AND "stepId" = '' THEN "targetKey"
  ELSE "task" || '|v:' || "videoId" || CASE WHEN "itemId" <> '' THEN '|i:' || "itemId" ELSE '' END || '|' || "target"
       || CASE WHEN "stepId" <> '' AND "itemId" = '' THEN '@' || "stepId" || ':' || "scopeIndex" ELSE '' END
       || CASE WHEN "frameSetId" <> '' THEN '#' || "frameSetId" ELSE '' END
  END;

-- Merge judgments of the same target by the same reviewer: the latest saved one stays.
CREATE TEMP TABLE "judgment_merge" AS
  SELECT "id", first_value("id") OVER w AS "survivor", count(*) OVER (PARTITION BY "newKey", "reviewerId") AS "n"
  FROM "human_judgment"
  WINDOW w AS (PARTITION BY "newKey", "reviewerId" ORDER BY "updatedAt" DESC, "id" DESC);

DROP RULE human_judgment_history_no_update ON "human_judgment_history";

UPDATE "human_judgment_history" hh SET "judgmentId" = m."survivor"
FROM "judgment_merge" m WHERE m."n" > 1 AND hh."judgmentId" = m."id" AND m."id" <> m."survivor";

-- The merged histories in the order they happened, numbered 1..n; the survivor's version is n.
UPDATE "human_judgment_history" hh SET "version" = o."rn"
FROM (
  SELECT hh2."id", row_number() OVER (PARTITION BY hh2."judgmentId" ORDER BY hh2."at", hh2."version", hh2."id") AS "rn"
  FROM "human_judgment_history" hh2
  WHERE hh2."judgmentId" IN (SELECT "survivor" FROM "judgment_merge" WHERE "n" > 1)
) o
WHERE hh."id" = o."id";

UPDATE "human_judgment" h SET "version" = GREATEST(h."version", (SELECT count(*) FROM "human_judgment_history" hh WHERE hh."judgmentId" = h."id"))
WHERE h."id" IN (SELECT "survivor" FROM "judgment_merge" WHERE "n" > 1);

CREATE RULE human_judgment_history_no_update AS ON UPDATE TO "human_judgment_history" DO INSTEAD NOTHING;

DELETE FROM "human_judgment" h USING "judgment_merge" m WHERE h."id" = m."id" AND m."id" <> m."survivor";

DROP TABLE "judgment_merge";

UPDATE "human_judgment" SET "targetKey" = "newKey";
ALTER TABLE "human_judgment" DROP COLUMN "newKey";
ALTER TABLE "human_judgment" ALTER COLUMN "task" SET NOT NULL, ALTER COLUMN "target" SET NOT NULL, ALTER COLUMN "gap" SET NOT NULL;

DROP INDEX "human_judgment_runId_videoId_idx";
DROP INDEX "human_judgment_videoId_reviewerId_idx";
CREATE INDEX "human_judgment_videoId_task_itemId_idx" ON "human_judgment"("videoId", "task", "itemId");
CREATE INDEX "human_judgment_projectId_task_idx" ON "human_judgment"("projectId", "task");
