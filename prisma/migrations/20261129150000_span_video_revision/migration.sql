-- Each video's last span revision: the project's span revision (span_revision) of the last write to the video's spans,
-- so span agreement can read and match again only the videos written since a kept report
-- (lib/spans/agreement/span-agreement-cache.ts). Set by the same trigger, in the same transaction, as the project's
-- revision: a video written at revision r holds r or more once r is visible.
CREATE TABLE "span_video_revision" (
    "videoId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "revision" BIGINT NOT NULL,

    CONSTRAINT "span_video_revision_pkey" PRIMARY KEY ("videoId")
);

CREATE INDEX "span_video_revision_projectId_revision_idx" ON "span_video_revision"("projectId", "revision");

-- Once per statement: the projects in order, then their written videos in order (two statements lock rows in one
-- order). An update reads the old rows too, so a span moved to another video marks both.
CREATE OR REPLACE FUNCTION span_revision_bump() RETURNS TRIGGER AS $$
BEGIN
  INSERT INTO "span_revision" ("projectId", "revision")
  SELECT DISTINCT "projectId", 1 FROM changed_spans ORDER BY 1
  ON CONFLICT ("projectId") DO UPDATE SET "revision" = "span_revision"."revision" + 1;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "span_video_revision" ("videoId", "projectId", "revision")
    SELECT w."videoId", w."projectId", r."revision"
    FROM (SELECT "videoId", "projectId" FROM changed_spans UNION SELECT "videoId", "projectId" FROM old_spans) w
    JOIN "span_revision" r ON r."projectId" = w."projectId"
    ORDER BY 1
    ON CONFLICT ("videoId") DO UPDATE SET "projectId" = EXCLUDED."projectId", "revision" = EXCLUDED."revision";
  ELSE
    INSERT INTO "span_video_revision" ("videoId", "projectId", "revision")
    SELECT w."videoId", w."projectId", r."revision"
    FROM (SELECT DISTINCT "videoId", "projectId" FROM changed_spans) w
    JOIN "span_revision" r ON r."projectId" = w."projectId"
    ORDER BY 1
    ON CONFLICT ("videoId") DO UPDATE SET "projectId" = EXCLUDED."projectId", "revision" = EXCLUDED."revision";
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER span_revision_update ON "span";
CREATE TRIGGER span_revision_update AFTER UPDATE ON "span"
  REFERENCING OLD TABLE AS old_spans NEW TABLE AS changed_spans FOR EACH STATEMENT EXECUTE FUNCTION span_revision_bump();

-- Videos with spans before this migration: at their project's current revision.
INSERT INTO "span_video_revision" ("videoId", "projectId", "revision")
SELECT DISTINCT s."videoId", s."projectId", r."revision"
FROM "span" s JOIN "span_revision" r ON r."projectId" = s."projectId"
ON CONFLICT ("videoId") DO NOTHING;
