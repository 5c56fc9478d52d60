-- AlterTable
ALTER TABLE "project" ADD COLUMN     "ssoDefaultRole" "ProjectRole";

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "approvalPendingSince" TIMESTAMP(3);
