-- Aligning a built-in task's judge (issue 26 item 4): an alignment names a rubric task or a built-in pipeline, and
-- a built-in task's chosen judge is saved as a prompt version.
-- AlterTable
ALTER TABLE "alignment_run" ADD COLUMN     "pipeline" TEXT,
ADD COLUMN     "promptVersionId" TEXT,
ALTER COLUMN "rubricTaskId" DROP NOT NULL;
