-- A judgment of one run's output (a QA run's answer to a question): the run whose answer is judged ('' for
-- every other subject). It is part of the judgment's key (`|r:<runId>`), so existing keys stay as they are.
ALTER TABLE "human_judgment" ADD COLUMN "subjectRunId" TEXT NOT NULL DEFAULT '';
