-- AlterTable
ALTER TABLE "llm_call" ADD COLUMN     "retries" INTEGER NOT NULL DEFAULT 0;
