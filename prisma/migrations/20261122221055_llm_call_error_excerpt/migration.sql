-- AlterTable
ALTER TABLE "llm_call" ADD COLUMN     "errorExcerpt" TEXT;
