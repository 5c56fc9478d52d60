/** What the Agreement page's "Where (spans)" section reads: the span agreement of the page's task and run, or why not. */
import type { ProjectAccess } from "@/lib/authz/permissions";
import { exportFileName } from "@/lib/agreement/export-file-name";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { projectSpanAgreement, type SpanAgreementReport } from "@/lib/spans/agreement/load-span-agreement";
import type { TaskCatalogue } from "@/lib/task-modules/task-catalogue";
import { WithheldError } from "@/lib/visibility/withheld";

export interface SpanAgreementSectionData {
  report: SpanAgreementReport | null;
  problem: string | null;
}

/** The span agreement's CSV among the page's exports, named as the route names it. */
export function spanAgreementDownload(projectId: string, projectName: string, task: string, runId: string | undefined) {
  const search = new URLSearchParams({ task, ...(runId ? { runId } : {}), format: "csv" });
  return {
    label: "Span agreement CSV",
    href: `/api/v1/projects/${projectId}/agreement/spans?${search.toString()}`,
    filename: exportFileName({
      project: projectName,
      what: "span-agreement",
      filter: { task, runId },
      date: new Date(),
      extension: "csv",
    }),
    kind: "csv" as const,
  };
}

/**
 * The span agreement of `task`, its judge the page's run when it names one (every run of the task otherwise). Withheld
 * or refused, the section says so in words; anything else is an error of the page.
 */
export async function loadSpanAgreementSection(
  access: ProjectAccess<"export.read">,
  catalogue: TaskCatalogue,
  task: string,
  runId: string | undefined,
): Promise<SpanAgreementSectionData> {
  const query = { task, ...(runId ? { runId } : {}) };
  try {
    const report = await projectSpanAgreement(prisma, access, query, catalogue);
    return { report, problem: null };
  } catch (error) {
    if (error instanceof WithheldError) return { report: null, problem: error.message };
    if (isAppErrorCode(error, "not_found") || isAppErrorCode(error, "invalid_request"))
      return { report: null, problem: error.message };
    throw error;
  }
}
