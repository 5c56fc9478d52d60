-- CreateTable
CREATE TABLE "sign_in_throttle" (
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL,

    CONSTRAINT "sign_in_throttle_pkey" PRIMARY KEY ("kind","key")
);
