import type { PrismaClient } from "../generated/prisma/client";
import { exportFileName } from "../agreement/export-file-name";
import { roleCan, type ProjectAccess } from "../authz/permissions";
import { ForbiddenError } from "../errors";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { withheldFor, type Withheld } from "../visibility/withheld";

/** A download link of an export route, with the name the route gives the file. */
export interface RunDownload {
  label: string;
  href: string;
  filename: string;
  kind?: "csv" | "jsonl" | "json";
}

/**
 * A results read answers any member as JSON; as CSV or JSONL it is an export, which the caller's role must also
 * allow (export.read), decided from the role the access already carries.
 */
export function requireExportRoleFor(access: ProjectAccess, format: "json" | "csv" | "jsonl"): void {
  if (format !== "json" && !roleCan(access.role, "export.read"))
    throw new ForbiddenError(`Your role (${access.role}) may not do that in this project.`);
}

/**
 * A run's exports through the existing routes (docs/api.md): its judged items with each reviewer's judgment
 * (the project export filtered to the run, CSV and JSONL), the Hugging Face dataset and the Label Studio
 * tasks and config. The run page and the Agreement page list them; the names are the routes' own.
 */
export function runDownloads(
  project: { id: string; name: string },
  runId: string,
  date: Date = new Date(),
): RunDownload[] {
  const name = (what: string, extension: string) =>
    exportFileName({ project: project.name, what, filter: { runId }, date, extension });
  const base = `/api/v1/projects/${encodeURIComponent(project.id)}/export`;
  const run = encodeURIComponent(runId);
  return [
    { label: "Items CSV", href: `${base}?runId=${run}&format=csv`, filename: name("items", "csv"), kind: "csv" },
    {
      label: "Items JSONL",
      href: `${base}?runId=${run}&format=jsonl`,
      filename: name("items", "jsonl"),
      kind: "jsonl",
    },
    ...runCommunityDownloads(project, runId, date),
  ];
}

/** The run in the community's formats only (docs/guide/exports.md): the Hugging Face dataset and the Label Studio files. */
export function runCommunityDownloads(
  project: { id: string; name: string },
  runId: string,
  date: Date = new Date(),
): RunDownload[] {
  const name = (what: string, extension: string) =>
    exportFileName({ project: project.name, what, filter: { runId }, date, extension });
  const base = `/api/v1/projects/${encodeURIComponent(project.id)}/export`;
  const run = encodeURIComponent(runId);
  return [
    {
      label: "Hugging Face dataset (.tar)",
      href: `${base}/hf-dataset?runId=${run}`,
      filename: name("hf-dataset", "tar"),
    },
    {
      label: "Label Studio tasks",
      href: `${base}/label-studio?runId=${run}&part=tasks`,
      filename: name("label-studio-tasks", "json"),
      kind: "json",
    },
    {
      label: "Label Studio config",
      href: `${base}/label-studio?runId=${run}&part=config`,
      filename: name("label-studio-config", "xml"),
    },
  ];
}

/**
 * Why the run's exports are withheld from the user (they review some of its videos in a blind queue, so every export
 * of the whole run answers 409 withheld), or null: pages show the notice instead of links that would fail.
 */
export async function runExportsWithheld(
  prisma: PrismaClient,
  userId: string,
  runId: string,
): Promise<Withheld | null> {
  return runsWithheld(prisma, userId, [runId]);
}

/** Why a view over the videos of `runIds` (an aggregate comparing runs) is withheld from the user, or null. */
export async function runsWithheld(
  prisma: PrismaClient,
  userId: string,
  runIds: readonly string[],
): Promise<Withheld | null> {
  // The user's blind videos are few; the runs' may be many: look those few up in the runs.
  const blind = [...(await blindVideoIdsFor(prisma, userId))];
  if (blind.length === 0 || runIds.length === 0) return null;
  const inRun = await prisma.runVideo.findMany({
    where: { runId: { in: [...runIds] }, videoId: { in: blind } },
    select: { videoId: true },
    distinct: ["videoId"],
  });
  return inRun.length === 0
    ? null
    : withheldFor(
        prisma,
        userId,
        inRun.map((v) => v.videoId),
      );
}
