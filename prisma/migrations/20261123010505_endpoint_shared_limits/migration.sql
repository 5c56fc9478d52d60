-- CreateTable
CREATE TABLE "endpoint_slot_lease" (
    "endpointId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endpoint_slot_lease_pkey" PRIMARY KEY ("endpointId","kind","slot")
);

-- CreateTable
CREATE TABLE "endpoint_pause" (
    "endpointId" TEXT NOT NULL,
    "pausedUntil" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endpoint_pause_pkey" PRIMARY KEY ("endpointId")
);

-- AddForeignKey
ALTER TABLE "endpoint_slot_lease" ADD CONSTRAINT "endpoint_slot_lease_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "judge_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_pause" ADD CONSTRAINT "endpoint_pause_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "judge_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
