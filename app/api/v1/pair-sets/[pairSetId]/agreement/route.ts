import { attachmentResponse } from "@/lib/api/attachment";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";
import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { pairwiseAgreement } from "@/lib/pairwise/reports/agreement";
import { pairwiseAgreementCsv } from "@/lib/pairwise/reports/agreement-csv";
import { pairwiseAgreementAnswerSchema } from "@/lib/pairwise/reports/reports.answers";
import { pairwiseAgreementQuerySchema } from "@/lib/pairwise/reports/reports.types";

/** `?format=json|csv&draws=&seed=`: agreement on the set's preferences per aspect, with the human-noise line. */
export const GET = withProjectOf(
  pairSetLookup,
  "project.view",
  {
    summary: "Agreement on a pair set's preferences per aspect: accuracies, κ and α with intervals, within human noise",
    query: pairwiseAgreementQuerySchema,
    responses: [
      {
        ...download(
          "Per aspect: each rater against the people and the gold (four-, three- and two-way accuracy, Cohen's κ, Krippendorff's α, each with its 95% interval over prompts) and each judge run's human-noise line; or the same as CSV rows.",
          ["application/json", "text/csv"],
        ),
        schema: pairwiseAgreementAnswerSchema,
      },
      withheldAnswer("The agreement (every format)"),
    ],
  },
  async ({ prisma, access, record, query }) => {
    const report = await pairwiseAgreement(prisma, access, record.id, query);
    if (query.format === "json") return Response.json(report, { headers: { "cache-control": "no-store" } });
    return attachmentResponse(pairwiseAgreementCsv(report), "csv", `pairwise-agreement-${record.id}`);
  },
);
