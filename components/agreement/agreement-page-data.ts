/** What the Agreement page reads: its query, the runs and filter choices, the report (or why it is withheld) and the downloads of what it shows. */
import type { AgreementView } from "@/components/agreement/agreement-report";
import { projectAgreement, scopeRuns } from "@/lib/agreement/load";
import { agreementQuerySchema } from "@/lib/agreement/report-filter";
import type { AgreementReport } from "@/lib/agreement/types";
import type { ProjectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import type { TaskCatalogue } from "@/lib/task-modules/task-catalogue";
import { browseOptions } from "@/lib/videos/browse-videos";
import { filterToSearchParams, videoFilterSchema } from "@/lib/videos/video-filter";
import { resolveFilterRun } from "@/lib/videos/video-filter-sql";
import { videoFileNames } from "@/lib/videos/video-file-names";
import { exportFileName } from "@/lib/agreement/export-file-name";
import { runCommunityDownloads, runExportsWithheld } from "@/lib/export/run-downloads";
import { getProject } from "@/lib/projects/projects";
import { metadataSplitFields } from "@/lib/export/hf-splits";
import { WithheldError } from "@/lib/visibility/withheld";
import { spanAgreementDownload } from "@/components/agreement/span-agreement-data";

/** The query keys the form shows itself (the filters are the project's catalogue's). */
const formKeys = (catalogue: DeclarationCatalogue) =>
  new Set([
    ...Object.keys(videoFilterSchema(catalogue).shape),
    "threshold",
    "overallThreshold",
    "presenceThreshold",
    "independent",
    "implied",
    "truth",
  ]);

export type AgreementPageData = Awaited<ReturnType<typeof loadAgreementPage>>;

export async function loadAgreementPage(
  access: ProjectAccess<"export.read">,
  catalogue: TaskCatalogue,
  raw: Record<string, string>,
) {
  const { actor, projectId } = access;
  const view: AgreementView = raw.view === "details" ? "details" : "summary";
  const parsed = agreementQuerySchema(catalogue).safeParse(raw);
  const query = parsed.success ? parsed.data : agreementQuerySchema(catalogue).parse({});
  const [runs, { dimensions, models }, splitFields] = await Promise.all([
    scopeRuns(prisma, projectId, null),
    browseOptions(prisma, access),
    metadataSplitFields(prisma, projectId),
  ]);
  // The filter fields are the task's of the run the video filters read (the named run, else the latest).
  const filterRun = await resolveFilterRun(prisma, catalogue, projectId, query.runId).catch(() => null);
  const task = filterRun?.task ?? catalogue.taskOf(catalogue.videoSubjectPipelineIds()[0] ?? catalogue.tasks[0]!.id);
  let report: AgreementReport | null = null;
  // The report and its exports are computed from every filtered video, or withheld while the user reviews one blind.
  let withheld: WithheldError | null = null;
  let fileNames: Record<string, string> = {};
  let problem: string | null = parsed.success
    ? null
    : `Some filters were not understood and were ignored: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}.`;
  try {
    report = await projectAgreement(prisma, access, query, catalogue);
    const cellVideoIds = Object.values(report.confusion).flatMap(
      (view) => view?.cells.flatMap((cell) => cell.videos.map((v) => v.videoId)) ?? [],
    );
    fileNames = await videoFileNames(prisma, access, cellVideoIds);
  } catch (error) {
    if (error instanceof WithheldError) withheld = error;
    else if (!(isAppErrorCode(error, "not_found") || isAppErrorCode(error, "invalid_request"))) throw error;
    else problem = error.message;
  }

  const {
    format: _format,
    threshold,
    overallThreshold,
    presenceThreshold,
    independent,
    implied,
    truth,
    ...filter
  } = query;
  const filterParams = filterToSearchParams(filter as Record<string, string | number | undefined>).toString();
  const withFormat = (format: string, extra = "") =>
    `${filterParams}${filterParams ? "&" : ""}${extra}format=${format}`;
  const presenceParam = presenceThreshold !== undefined ? `presenceThreshold=${presenceThreshold}&` : "";
  const thresholds = `threshold=${threshold}&overallThreshold=${overallThreshold}&${presenceParam}independent=${independent}&implied=${implied}&truth=${truth}&`;
  const project = await getProject(prisma, access);
  const runWithheld = filterRun ? await runExportsWithheld(prisma, actor.userId, filterRun.id) : null;
  const downloadName = (what: string, extension: string) =>
    exportFileName({
      project: project.name,
      what,
      filter: filter as Record<string, string | number | undefined>,
      date: new Date(),
      extension,
    });
  const downloads = [
    {
      label: "Items CSV",
      href: `/api/v1/projects/${projectId}/export?${withFormat("csv")}`,
      filename: downloadName("items", "csv"),
      kind: "csv" as const,
    },
    {
      label: "Items JSONL",
      href: `/api/v1/projects/${projectId}/export?${withFormat("jsonl")}`,
      filename: downloadName("items", "jsonl"),
      kind: "jsonl" as const,
    },
    {
      label: "Report JSON",
      href: `/api/v1/projects/${projectId}/agreement?${withFormat("json", thresholds)}`,
      filename: downloadName("agreement", "json"),
      kind: "json" as const,
    },
    {
      label: "Report CSV",
      href: `/api/v1/projects/${projectId}/agreement?${withFormat("csv", thresholds)}`,
      filename: downloadName("agreement", "csv"),
      kind: "csv" as const,
    },
    spanAgreementDownload(projectId, project.name, task.id, query.runId),
    // Whole-run exports in the community's formats: of the run the filters read (the named one, else the latest).
    // …unless they are withheld (the user reviews some of the run's videos blind): those links would answer 409.
    ...(filterRun && !runWithheld ? runCommunityDownloads(project, filterRun.id) : []),
  ];
  const shownKeys = formKeys(catalogue);
  const hidden = Object.entries(raw).filter(
    ([k]) => !shownKeys.has(k) && k in agreementQuerySchema(catalogue).shape && k !== "format",
  );
  return {
    ...{ view, query, runs, dimensions, models, splitFields, filterRun, task, report, withheld, fileNames, problem },
    ...{ filterParams, runWithheld, downloads, hidden },
  };
}
