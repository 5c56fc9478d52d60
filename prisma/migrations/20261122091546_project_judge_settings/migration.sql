-- AlterTable
ALTER TABLE "project" ADD COLUMN     "judgeSettings" JSONB NOT NULL DEFAULT '{}';
