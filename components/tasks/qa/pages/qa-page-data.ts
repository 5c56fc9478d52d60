/** What the Video QA page reads: its query, the compared runs' overview, one run's question list, the downloads and the harness import's choices. */
import type { ProjectAccess } from "@/lib/authz/permissions";
import { roleCan } from "@/lib/authz/permissions";
import { listItemSets } from "@/lib/items/item-sets";
import { listEndpoints } from "@/lib/judge/endpoints/endpoints";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { qaPageQuerySchema } from "@/lib/tasks/qa/qa-query";
import { qaFilterOptions } from "@/lib/tasks/qa/qa-questions";
import { qaPageOverview, runQaResults } from "@/lib/tasks/qa/visible-qa-results";
import { runExportsWithheld } from "@/lib/export/run-downloads";
import { searchParamsObject } from "@/lib/videos/video-filter";

export type QaPageData = Awaited<ReturnType<typeof loadQaPage>>;

type Shown = Awaited<ReturnType<typeof qaPageOverview>>;

/**
 * The page's downloads: the compared runs' accuracy (unless the aggregates are withheld) and each run's answers
 * (unless that run's are).
 */
function qaDownloads(
  projectId: string,
  chosen: Shown["overview"]["chosen"],
  withheld: Shown["withheld"],
  answersWithheld: Awaited<ReturnType<typeof runExportsWithheld>>[],
) {
  const compared = chosen.map((r) => `runId=${r.id}`).join("&");
  return [
    ...(chosen.length && !withheld
      ? [
          {
            label: "Accuracy CSV",
            href: `/api/v1/projects/${projectId}/qa-accuracy?${compared}&format=csv`,
            filename: `qa-accuracy-${projectId}.csv`,
            kind: "csv" as const,
          },
          {
            label: "Accuracy JSONL",
            href: `/api/v1/projects/${projectId}/qa-accuracy?${compared}&format=jsonl`,
            filename: `qa-accuracy-${projectId}.jsonl`,
            kind: "jsonl" as const,
          },
        ]
      : []),
    ...chosen.flatMap((run, i) =>
      (answersWithheld[i] ? [] : (["csv", "jsonl"] as const)).map((format) => ({
        label: `${run.label} answers ${format.toUpperCase()}`,
        href: `/api/v1/runs/${run.id}/qa?format=${format}`,
        filename: `qa-${run.id}.${format}`,
        kind: format,
      })),
    ),
  ];
}

/** What the Video QA page reads (see the file's comment). */
export async function loadQaPage(access: ProjectAccess, rawParams: Record<string, string | string[] | undefined>) {
  const { actor, role, projectId } = access;
  const runIds = ([] as string[]).concat(rawParams.runId ?? []).filter(Boolean);
  const raw = { ...searchParamsObject(rawParams), ...(runIds.length ? { runId: runIds } : {}) };
  const parsed = qaPageQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : qaPageQuerySchema.parse({});
  let problem = parsed.success
    ? null
    : `Some parameters were not understood and were ignored: ${parsed.error.issues.map((i) => i.path.join(".") || i.message).join(", ")}.`;
  const options = await qaFilterOptions(prisma, access);
  let shown: Awaited<ReturnType<typeof qaPageOverview>> | null = null;
  try {
    shown = await qaPageOverview(prisma, access, { runId: query.runId, format: "json" });
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof ValidationError)) throw error;
    problem = error.message;
    shown = await qaPageOverview(prisma, access, { runId: [], format: "json" });
  }
  // While the user reviews some of the compared runs' videos blind, the aggregates and the downloads they hold are withheld whole.
  const { overview, withheld } = shown;
  const chosen = overview.chosen;
  const listRun =
    chosen.find((r) => r.id === query.listRunId) ??
    overview.runs.find((r) => r.id === query.listRunId) ??
    chosen[0] ??
    null;
  let list: Awaited<ReturnType<typeof runQaResults>> | null = null;
  if (listRun) {
    try {
      list = await runQaResults(prisma, access, listRun.id, { ...query, format: "json" });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problem = error.message;
      list = await runQaResults(prisma, access, listRun.id, { page: 1, pageSize: query.pageSize, format: "json" });
    }
  }
  const canExport = roleCan(role, "export.read");
  const answersWithheld = canExport
    ? await Promise.all(chosen.map((run) => runExportsWithheld(prisma, actor.userId, run.id)))
    : [];
  const exportsWithheld = withheld ?? answersWithheld.find((w) => w !== null) ?? null;
  const downloads = qaDownloads(projectId, chosen, withheld, answersWithheld);
  const keep = (change: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const id of chosen.map((r) => r.id)) if (query.runId.length) search.append("runId", id);
    for (const [k, v] of Object.entries({ ...searchParamsObject(rawParams), ...change }))
      if (k !== "runId" && v) search.set(k, v);
    return `/projects/${projectId}/qa?${search}`;
  };
  const harnessSets =
    roleCan(role, "runs.manage") && options.questionSets > 0
      ? (await listItemSets(prisma, access, ["questions"])).map((set) => ({ id: set.id, name: set.name }))
      : [];
  const judgeEndpoints =
    harnessSets.length > 0 ? (await listEndpoints(prisma, access)).map((e) => ({ id: e.id, name: e.name })) : [];
  return {
    query,
    problem,
    options,
    overview,
    withheld,
    listRun,
    list,
    canExport,
    downloads,
    exportsWithheld,
    keep,
    harnessSets,
    judgeEndpoints,
  };
}
