import type { z } from "zod";
import type { ProjectAccess } from "../../authz/permissions";
import { ValidationError } from "../../errors";
import type { PrismaClient } from "../../generated/prisma/client";
import type { explicitPairSchema } from "./create-pair-set.types";
import { type DesignedPair, type DesignVideo, promptKey } from "./pair-design";

const READ_CHUNK = 10_000;

/** The named videos of the caller's project, by id (read in chunks: a set may name 200,000). */
async function videosById(prisma: PrismaClient, access: ProjectAccess, ids: string[]) {
  const found = new Map<
    string,
    { id: string; prompt: string | null; model: string | null; fileName: string; sampleIndex: number | null }
  >();
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    const rows = await prisma.video.findMany({
      where: { projectId: access.projectId, id: { in: ids.slice(start, start + READ_CHUNK) } },
      select: { id: true, prompt: true, model: true, fileName: true, sampleIndex: true },
    });
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** Why an explicit pair cannot be made, or null. */
function pairProblem(a: DesignVideo | string, b: DesignVideo | string, crossPrompt: boolean): string | null {
  if (typeof a === "string") return a;
  if (typeof b === "string") return b;
  if (a.id === b.id) return `a pair of one video with itself (${a.id}); a honeypot is made with honeypots, not named`;
  if (a.prompt !== b.prompt && !crossPrompt)
    return `videos ${a.id} and ${b.id} are of different prompts (allowed only with crossPrompt: true)`;
  return null;
}

/**
 * The maker's own pairs, A as named, each checked: both videos in the project with a prompt and a model, two
 * different videos, of one prompt unless the set allows crossing prompts. Every problem is refused (400, the first
 * few named); a pair named twice is made once.
 */
export async function checkExplicitPairs(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairs: readonly z.output<typeof explicitPairSchema>[],
  crossPrompt: boolean,
): Promise<DesignedPair[]> {
  const found = await videosById(prisma, access, [...new Set(pairs.flatMap((p) => [p.videoAId, p.videoBId]))]);
  const video = (id: string): DesignVideo | string => {
    const row = found.get(id);
    if (!row) return `no video ${id} in this project`;
    if (!row.prompt) return `video ${id} has no prompt`;
    if (!row.model) return `video ${id} has no model (generator)`;
    return {
      id,
      prompt: promptKey(row.prompt),
      generator: row.model,
      sampleIndex: row.sampleIndex,
      name: row.fileName,
    };
  };
  const problems: string[] = [];
  const out = new Map<string, DesignedPair>();
  pairs.forEach((pair, index) => {
    const a = video(pair.videoAId);
    const b = video(pair.videoBId);
    const problem = pairProblem(a, b, crossPrompt);
    if (problem) problems.push(`pair ${index + 1}: ${problem}`);
    else if (typeof a !== "string" && typeof b !== "string")
      out.set(`${a.id}:${b.id}`, { pairKey: `${a.id}:${b.id}`, videoA: a, videoB: b, honeypot: null });
  });
  if (problems.length > 0)
    throw new ValidationError(
      `${problems.length} of ${pairs.length} pairs cannot be made: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? "; …" : ""}`,
    );
  return [...out.values()];
}
