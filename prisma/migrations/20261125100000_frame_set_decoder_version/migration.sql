-- AlterTable
ALTER TABLE "frame_set" ADD COLUMN     "decoderVersion" TEXT;
