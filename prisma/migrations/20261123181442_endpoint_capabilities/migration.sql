-- AlterTable
ALTER TABLE "judge_endpoint" ADD COLUMN     "apiVersion" TEXT,
ADD COLUMN     "capabilities" JSONB,
ADD COLUMN     "maxTokens" INTEGER,
ADD COLUMN     "probedAt" TIMESTAMP(3),
ADD COLUMN     "sendImageDetail" BOOLEAN NOT NULL DEFAULT true;
