-- Honest judgments: a value taken with the explicit "accept the judge's value" action is marked, and a
-- reviewer can withdraw a judgment (the row and its history stay; it counts nowhere until saved again).
ALTER TABLE "human_judgment"
  ADD COLUMN "acceptedJudge" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "withdrawn" BOOLEAN NOT NULL DEFAULT false;
