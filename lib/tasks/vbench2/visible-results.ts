/**
 * The run's VBench-2.0 results as the caller may see them (lib/visibility): a video the caller reviews blind keeps
 * its path, prompt and questions, and loses the judge's answers and values and people's, marked `blind`. The
 * dimension scores and the total are computed from every video, whoever looks. VBench's results file
 * (`eval_results`) is a whole export: withheld (WithheldError) while any of its videos is blind to the caller.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { blindVideoIdsFor } from "../../visibility/judge-visibility";
import { requireWholeView } from "../../visibility/withheld";
import { evalResultsOf, vbench2RunResults, type DimensionResult, type Vbench2Results, type Vbench2ResultsOptions, type VideoResult } from "./results";

export type VisibleVideoResult = VideoResult & { blind: boolean };
export type VisibleVbench2Results = Omit<Vbench2Results, "dimensions"> & { dimensions: (Omit<DimensionResult, "videos"> & { videos: VisibleVideoResult[] })[] };

function withheld(video: VideoResult): VisibleVideoResult {
  return {
    ...video,
    value: null,
    excludedReason: null,
    humanValue: null,
    humanExcludedReason: null,
    blind: true,
    questions: video.questions.map((q) => ({ ...q, answer: null, yes: null, notAsked: null, human: null })),
  };
}

/** Every video the results hold. */
export const videoIdsOf = (results: Vbench2Results): string[] => [...new Set(results.dimensions.flatMap((d) => d.videos.map((v) => v.videoId)))];

export async function visibleVbench2Results(prisma: PrismaClient, actor: Actor, projectId: string, runId: string, options: Vbench2ResultsOptions = {}): Promise<VisibleVbench2Results> {
  const results = await vbench2RunResults(prisma, projectId, runId, options);
  const blind = await blindVideoIdsFor(prisma, actor.userId, videoIdsOf(results));
  return { ...results, dimensions: results.dimensions.map((d) => ({ ...d, videos: d.videos.map((v) => (blind.has(v.videoId) ? withheld(v) : { ...v, blind: false })) })) };
}

/** VBench's results file of one generator (evalResultsOf), whole, or WithheldError while the caller reviews any of its videos blind. */
export async function visibleEvalResults(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  options: Vbench2ResultsOptions & { model: string },
): Promise<ReturnType<typeof evalResultsOf>> {
  const results = await vbench2RunResults(prisma, projectId, runId, options);
  await requireWholeView(prisma, actor.userId, videoIdsOf(results), `${options.model}'s eval_results file`);
  return evalResultsOf(results);
}
