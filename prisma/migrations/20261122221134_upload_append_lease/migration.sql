-- AlterTable
ALTER TABLE "upload_session" ADD COLUMN     "appendingUntil" TIMESTAMP(3);
