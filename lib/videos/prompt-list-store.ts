import type { Prisma } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import { completenessReport } from "../import/completeness";
import { parsePromptList } from "../import/prompt-lists";
import { promptIndexForProject } from "./describe-imported-video";
import type { VideoDeps } from "./register-video";
import { rejectNulBytesInFile } from "../validation/nul-bytes";

export const MAX_PROMPT_LIST_BYTES = 32 * 1024 * 1024;

/** Stores a prompt list (any supported format); later imports restore prompts and dimensions from it. */
export async function savePromptList(deps: VideoDeps, actor: Actor, projectId: string, fileName: string, content: string) {
  await requireProjectAccess(deps.prisma, actor, projectId, "videos.import");
  rejectNulBytesInFile(content, fileName);
  const parsed = parsePromptList(fileName, content);
  if (!parsed.ok) throw new ValidationError(`${fileName}: ${parsed.error}`);
  if (parsed.entries.length === 0) throw new ValidationError(`${fileName}: no prompts found.`);
  const list = await deps.prisma.promptList.create({
    data: {
      projectId,
      name: fileName.slice(0, 300),
      format: parsed.format,
      entries: parsed.entries as unknown as Prisma.InputJsonValue,
      entryCount: parsed.entries.length,
      createdById: actor.userId,
    },
  });
  return { id: list.id, name: list.name, format: list.format, entryCount: list.entryCount };
}

export async function listPromptLists(deps: VideoDeps, actor: Actor, projectId: string) {
  await requireProjectAccess(deps.prisma, actor, projectId, "project.view");
  return deps.prisma.promptList.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, format: true, entryCount: true, createdAt: true },
  });
}

export async function projectCompleteness(deps: VideoDeps, actor: Actor, projectId: string) {
  await requireProjectAccess(deps.prisma, actor, projectId, "project.view");
  const [promptIndex, videos] = await Promise.all([
    promptIndexForProject(deps.prisma, projectId),
    deps.prisma.video.findMany({
      where: { projectId },
      select: { relativePath: true, prompt: true, dimensions: true, sampleIndex: true, matchedPrompt: true },
    }),
  ]);
  return completenessReport({
    promptIndex,
    videos: videos.map((video) => ({
      relativePath: video.relativePath,
      prompt: video.prompt,
      dimensions: video.dimensions,
      sampleIndex: video.sampleIndex,
      matchedPromptList: video.matchedPrompt,
    })),
  });
}
