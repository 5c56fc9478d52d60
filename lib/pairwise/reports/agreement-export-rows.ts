import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import type { CsvValue } from "../../format/csv";
import { WithheldError } from "../../visibility/withheld";
import { pairwiseAgreement } from "./agreement";
import { pairwiseAgreementQuerySchema } from "./reports.types";

const STATISTICS = ["accuracy4", "accuracy3", "accuracy2", "cohenKappa", "krippendorffAlpha"] as const;

/**
 * The pairwise rows of the project's agreement export, in its columns (comparison, breakdown, group, statistic,
 * value, ci_low, ci_high, n): for each pair set not archived, `pairwise:<rater>|<reference>` per aspect (the group)
 * with every statistic, and each judge run's `within_human_noise` (1 within, 0 not, empty when it cannot be said,
 * its interval people's with each other). The figures are the set's agreement page's (the same draws and seed); a
 * set withheld from the caller (blind pairs left to review) has one `withheld` row instead.
 */
export async function pairwiseAgreementExportRows(prisma: PrismaClient, access: ProjectAccess): Promise<CsvValue[][]> {
  const sets = await prisma.pairSet.findMany({
    where: { projectId: access.projectId, archivedAt: null },
    select: { id: true, name: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const options = pairwiseAgreementQuerySchema.parse({});
  const rows: CsvValue[][] = [];
  for (const set of sets) {
    const report = await pairwiseAgreement(prisma, access, set.id, options).catch((error: unknown) => {
      if (!(error instanceof WithheldError)) throw error;
      rows.push(["pairwise", `pair_set:${set.name}`, "all", "withheld", null, null, null, null]);
      return null;
    });
    if (!report) continue;
    const name = (id: string) => report.raterNames[id] ?? id;
    const reference = (id: string) => (id.startsWith("person:") ? `person:${name(id.slice(7))}` : id);
    const breakdown = `pair_set:${report.pairSet.name}`;
    for (const aspect of report.aspects) {
      for (const row of aspect.rows)
        for (const statistic of STATISTICS) {
          const figure = row.agreement[statistic];
          const comparison = `pairwise:${name(row.rater)}|${reference(row.reference)}`;
          rows.push([
            comparison,
            breakdown,
            aspect.aspect,
            statistic,
            figure.value,
            figure.lower,
            figure.upper,
            figure.n,
          ]);
        }
      for (const line of aspect.noise) {
        const within = line.within === null ? null : line.within ? 1 : 0;
        const { lower, upper } = line.humanAccuracy3;
        const comparison = `pairwise:${name(line.judge)}|people`;
        rows.push([
          comparison,
          breakdown,
          aspect.aspect,
          "within_human_noise",
          within,
          lower,
          upper,
          line.judgeAccuracy3.n,
        ]);
      }
    }
  }
  return rows;
}
