-- Each project's span revision: span agreement keeps its reports keyed by it (lib/spans/agreement/span-agreement-cache.ts).
-- The database bumps it in the same transaction as every insert, update or delete of the project's spans, whatever
-- writes them (the app, a cascade, a raw statement), so a report kept at a revision is never served past a change.
CREATE TABLE "span_revision" (
    "projectId" TEXT NOT NULL,
    "revision" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "span_revision_pkey" PRIMARY KEY ("projectId")
);

-- Once per statement, the projects in order (two statements bumping the same projects lock their rows in one order).
CREATE FUNCTION span_revision_bump() RETURNS TRIGGER AS $$
BEGIN
  INSERT INTO "span_revision" ("projectId", "revision")
  SELECT DISTINCT "projectId", 1 FROM changed_spans ORDER BY 1
  ON CONFLICT ("projectId") DO UPDATE SET "revision" = "span_revision"."revision" + 1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER span_revision_insert AFTER INSERT ON "span"
  REFERENCING NEW TABLE AS changed_spans FOR EACH STATEMENT EXECUTE FUNCTION span_revision_bump();
CREATE TRIGGER span_revision_update AFTER UPDATE ON "span"
  REFERENCING NEW TABLE AS changed_spans FOR EACH STATEMENT EXECUTE FUNCTION span_revision_bump();
CREATE TRIGGER span_revision_delete AFTER DELETE ON "span"
  REFERENCING OLD TABLE AS changed_spans FOR EACH STATEMENT EXECUTE FUNCTION span_revision_bump();
