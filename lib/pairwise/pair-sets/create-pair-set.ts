import type { ProjectAccess } from "../../authz/permissions";
import { isPrismaError, UNIQUE_VIOLATION } from "../../db/prisma-errors";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { CreatePairSetAnswer, CreatePairSetInput } from "./create-pair-set.types";
import { type DesignedPair, type DesignVideo, designPairs, type GeneratorDesign, promptKey } from "./pair-design";
import { checkExplicitPairs } from "./explicit-pairs";
import { checkAssignees, pairSetSummary } from "./pair-sets";
import type { PairSetOrigin } from "./pair-sets.types";

// 2,000 rows of 13 columns stay well under PostgreSQL's 65,535 bind parameters a statement.
const INSERT_CHUNK = 2_000;

interface ProjectVideos {
  videos: DesignVideo[];
  leftOut: CreatePairSetAnswer["leftOut"];
}

const noneLeftOut = (): CreatePairSetAnswer["leftOut"] => ({
  videosWithoutModel: 0,
  videosWithoutPrompt: 0,
  failedVideos: 0,
  promptsWithOneGenerator: 0,
  promptsWithoutVideos: 0,
  generatorPairsWithoutCommonSample: 0,
});

/** The prompts the maker chose, as keys, or null for every prompt. */
async function chosenPrompts(
  prisma: PrismaClient,
  access: ProjectAccess,
  prompts: CreatePairSetInput["prompts"],
): Promise<Set<string> | null> {
  if (prompts === "all") return null;
  if ("prompts" in prompts) return new Set(prompts.prompts.map(promptKey));
  const list = await prisma.promptList.findFirst({
    where: { id: prompts.promptListId, projectId: access.projectId },
    select: { entries: { select: { prompt: true } } },
  });
  if (!list) throw new NotFoundError("No such prompt list.");
  return new Set(list.entries.map((entry) => promptKey(entry.prompt)));
}

/**
 * The project's videos that may be paired (a prompt, a model, not failed), of the chosen prompts and generators, with
 * the counts of those left out. Unknown generators are refused: a typo would otherwise shrink the set silently.
 */
async function pairableVideos(
  prisma: PrismaClient,
  access: ProjectAccess,
  input: CreatePairSetInput,
): Promise<ProjectVideos> {
  const [prompts, rows] = await Promise.all([
    chosenPrompts(prisma, access, input.prompts),
    prisma.video.findMany({
      where: { projectId: access.projectId },
      select: { id: true, prompt: true, model: true, sampleIndex: true, fileName: true, status: true },
    }),
  ]);
  const leftOut = noneLeftOut();
  const wanted = input.generators ? new Set(input.generators) : null;
  const seenGenerators = new Set<string>();
  const seenPrompts = new Set<string>();
  const videos: DesignVideo[] = [];
  for (const row of rows) {
    const prompt = row.prompt === null ? null : promptKey(row.prompt);
    if (prompts && (prompt === null || !prompts.has(prompt))) continue;
    if (row.status === "failed") leftOut.failedVideos++;
    else if (!prompt) leftOut.videosWithoutPrompt++;
    else if (!row.model) leftOut.videosWithoutModel++;
    else {
      seenGenerators.add(row.model);
      seenPrompts.add(prompt);
      if (wanted && !wanted.has(row.model)) continue;
      videos.push({ id: row.id, prompt, generator: row.model, sampleIndex: row.sampleIndex, name: row.fileName });
    }
  }
  const unknown = input.generators?.filter((generator) => !seenGenerators.has(generator)) ?? [];
  if (unknown.length > 0)
    throw new ValidationError(
      `unknown generators: ${unknown.map((g) => JSON.stringify(g)).join(", ")} (no video of the prompts chosen has this model).`,
    );
  if (prompts) leftOut.promptsWithoutVideos = [...prompts].filter((prompt) => !seenPrompts.has(prompt)).length;
  return { videos, leftOut };
}

function generatorDesign(input: CreatePairSetInput): GeneratorDesign {
  switch (input.design) {
    case "all_pairs":
    case "round_robin":
      return { kind: input.design };
    case "k_per_prompt":
      return { kind: "k_per_prompt", k: input.k! };
    case "explicit":
      throw new Error("an explicit design names its pairs");
    default: {
      const never: never = input.design;
      throw new Error(`unknown design ${String(never)}`);
    }
  }
}

function originOf(input: CreatePairSetInput): PairSetOrigin {
  const prompts =
    input.prompts === "all" || "promptListId" in input.prompts
      ? input.prompts
      : { promptCount: input.prompts.prompts.length };
  return {
    source: "project",
    design: input.design,
    ...(input.k === undefined ? {} : { k: input.k }),
    sample: input.sample,
    seed: input.seed,
    prompts,
    ...(input.generators ? { generators: input.generators } : {}),
    ...(input.honeypots ? { honeypots: input.honeypots } : {}),
  };
}

/** The notes of what was left out, in words; only the counts that are not zero. */
function leftOutNotes(leftOut: CreatePairSetAnswer["leftOut"]): string[] {
  const notes: [number, string][] = [
    [leftOut.videosWithoutModel, "videos without a model"],
    [leftOut.videosWithoutPrompt, "videos without a prompt"],
    [leftOut.failedVideos, "videos that failed to decode"],
    [leftOut.promptsWithOneGenerator, "prompts with videos of one generator only"],
    [leftOut.promptsWithoutVideos, "prompts chosen without videos"],
    [leftOut.generatorPairsWithoutCommonSample, "generator pairs without a common sample index"],
  ];
  return notes.filter(([n]) => n > 0).map(([n, what]) => `left out: ${n} ${what}`);
}

function pairRows(setId: string, projectId: string, pairs: readonly DesignedPair[]): Prisma.PairCreateManyInput[] {
  return pairs.map((pair, position) => ({
    pairSetId: setId,
    projectId,
    pairKey: pair.pairKey,
    position,
    videoAId: pair.videoA.id,
    videoBId: pair.videoB.id,
    generatorA: pair.videoA.generator,
    generatorB: pair.videoB.generator,
    prompt: pair.videoA.prompt,
    nameA: pair.videoA.name,
    nameB: pair.videoB.name,
    ...(pair.honeypot ? { honeypot: { kind: pair.honeypot } } : {}),
  }));
}

/**
 * Writes the set and its pairs in one transaction: a second maker of the same name waits on the unique name and then
 * meets it (409); the pairs go in chunks, each its own createMany (skipDuplicates on the pair key).
 */
async function writePairSet(
  prisma: PrismaClient,
  access: ProjectAccess<"pairs.manage">,
  input: CreatePairSetInput,
  pairs: readonly DesignedPair[],
) {
  try {
    return await prisma.$transaction(
      async (tx) => {
        const set = await tx.pairSet.create({
          data: {
            projectId: access.projectId,
            name: input.name,
            aspects: input.aspects,
            origin: originOf(input),
            crossPrompt: input.crossPrompt,
            blind: input.blind,
            reviewersPerPair: input.reviewersPerPair,
            assigneeIds: [...new Set(input.assigneeIds)],
            guidelines: input.guidelines,
            votesPerPromptCap: input.votesPerPromptCap,
            createdById: access.actor.userId,
          },
        });
        const rows = pairRows(set.id, access.projectId, pairs);
        let pairCount = 0;
        for (let start = 0; start < rows.length; start += INSERT_CHUNK)
          pairCount += (
            await tx.pair.createMany({ data: rows.slice(start, start + INSERT_CHUNK), skipDuplicates: true })
          ).count;
        return tx.pairSet.update({ where: { id: set.id }, data: { pairCount } });
      },
      { maxWait: 20_000, timeout: 300_000 },
    );
  } catch (error) {
    if (isPrismaError(error, UNIQUE_VIOLATION))
      throw new ConflictError(`A pair set named ${JSON.stringify(input.name)} already exists in this project.`);
    throw error;
  }
}

/**
 * Makes a pair set from the project's videos (owners): the design picks generator pairs per prompt, `sample` their
 * videos, A and B drawn at random, positions shuffled, all from `seed`; or the maker's own pairs (`explicit`).
 * Refuses, writing nothing, when no pair can be made, when there would be too many, or when an explicit pair is bad.
 */
export async function createPairSet(
  prisma: PrismaClient,
  access: ProjectAccess<"pairs.manage">,
  input: CreatePairSetInput,
): Promise<CreatePairSetAnswer> {
  if (input.assigneeIds.length > 0) await checkAssignees(prisma, access, input.assigneeIds);
  let pairs: DesignedPair[];
  let leftOut = noneLeftOut();
  if (input.design === "explicit") {
    pairs = await checkExplicitPairs(prisma, access, input.pairs!, input.crossPrompt);
  } else {
    const pairable = await pairableVideos(prisma, access, input);
    leftOut = pairable.leftOut;
    const design = designPairs(pairable.videos, {
      design: generatorDesign(input),
      sample: input.sample,
      seed: input.seed,
      honeypots: input.honeypots,
    });
    pairs = design.pairs;
    leftOut.promptsWithOneGenerator = design.promptsWithOneGenerator;
    leftOut.generatorPairsWithoutCommonSample = design.generatorPairsWithoutCommonSample;
  }
  const set = await writePairSet(prisma, access, input, pairs);
  return {
    pairSet: pairSetSummary(set),
    pairs: set.pairCount,
    honeypots: pairs.filter((pair) => pair.honeypot).length,
    leftOut,
    notes: leftOutNotes(leftOut),
  };
}
