-- AlterTable
ALTER TABLE "video" ADD COLUMN     "auxiliaryInfo" JSONB NOT NULL DEFAULT '{}';
