import { prisma } from "../../lib/db/prisma";
import type { RaterKind, Verdict } from "../../lib/pairwise/verdicts";

export interface VerdictRow {
  pairId: string;
  aspect: string;
  raterId: string;
  raterKind?: RaterKind;
  verdict: Verdict;
  strength?: number;
  aShownOn?: "left" | "right" | null;
  withdrawn?: boolean;
}

/** Stores verdicts as the review, judge and import parts write them (their rows, without their checks). */
export async function storeVerdicts(rows: readonly VerdictRow[]) {
  if (rows.length === 0) return;
  const pairs = await prisma.pair.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.pairId))] } },
    select: { id: true, projectId: true, pairSetId: true },
  });
  const byId = new Map(pairs.map((p) => [p.id, p]));
  await prisma.pairVerdict.createMany({
    data: rows.map((row) => {
      const pair = byId.get(row.pairId)!;
      return {
        projectId: pair.projectId,
        pairSetId: pair.pairSetId,
        pairId: row.pairId,
        aspect: row.aspect,
        raterId: row.raterId,
        raterKind: row.raterKind ?? "reviewer",
        verdict: row.verdict,
        strength: row.strength ?? 1,
        aShownOn: row.aShownOn === undefined ? "left" : row.aShownOn,
        withdrawn: row.withdrawn ?? false,
      };
    }),
  });
}
