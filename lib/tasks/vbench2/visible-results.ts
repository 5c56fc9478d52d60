/**
 * The run's VBench-2.0 results as the caller may see them (lib/visibility): whole or withheld. The dimension scores,
 * the category means, the total and each dimension's counts of excluded and disagreeing videos are computed from
 * every video, so while any of the run's videos is blind to the caller the whole results view is withheld
 * (WithheldError, 409 `withheld`), never shown with some videos' values redacted beside numbers computed from them.
 * VBench's results file (`eval_results`) is one generator's: withheld while any of that generator's videos is blind.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { blindVideoIdsFor } from "../../visibility/judge-visibility";
import { requireWholeView, WithheldError, withheldFor, type Withheld } from "../../visibility/withheld";
import {
  evalResultsOf,
  vbench2RunResults,
  type DimensionResult,
  type Vbench2Results,
  type Vbench2ResultsOptions,
  type VideoResult,
} from "./results";

/** `blind` is false in every view shown: a view holding a blind video is withheld whole. */
export type VisibleVideoResult = VideoResult & { blind: boolean };
export type VisibleVbench2Results = Omit<Vbench2Results, "dimensions"> & {
  dimensions: (Omit<DimensionResult, "videos"> & { videos: VisibleVideoResult[] })[];
};

/** Every video the results hold. */
export const videoIdsOf = (results: Vbench2Results): string[] => [
  ...new Set(results.dimensions.flatMap((d) => d.videos.map((v) => v.videoId))),
];

const whole = (results: Vbench2Results): VisibleVbench2Results => ({
  ...results,
  dimensions: results.dimensions.map((d) => ({ ...d, videos: d.videos.map((v) => ({ ...v, blind: false })) })),
});

/** The results page's view: the whole results, or why they are withheld and which generators' eval_results files are still whole. */
export type Vbench2ResultsView =
  | { results: VisibleVbench2Results; withheld: null; generators: { model: string; withheld: boolean }[] }
  | { results: null; withheld: Withheld; generators: { model: string; withheld: boolean }[] };

export async function vbench2ResultsView(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  options: Vbench2ResultsOptions = {},
): Promise<Vbench2ResultsView> {
  const results = await vbench2RunResults(prisma, projectId, runId, options);
  const ids = videoIdsOf(results);
  const blind = await blindVideoIdsFor(prisma, actor.userId, ids);
  const models = new Map<string, boolean>();
  for (const video of results.dimensions.flatMap((d) => d.videos)) {
    if (video.model !== null) models.set(video.model, (models.get(video.model) ?? false) || blind.has(video.videoId));
  }
  const generators = [...models]
    .map(([model, withheld]) => ({ model, withheld }))
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  const withheld = blind.size ? await withheldFor(prisma, actor.userId, ids) : null;
  return withheld ? { results: null, withheld, generators } : { results: whole(results), withheld: null, generators };
}

/** The run's whole results, or WithheldError while the caller reviews any of its videos blind. */
export async function visibleVbench2Results(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  runId: string,
  options: Vbench2ResultsOptions = {},
): Promise<VisibleVbench2Results> {
  const view = await vbench2ResultsView(prisma, actor, projectId, runId, options);
  if (view.withheld) throw new WithheldError("The VBench-2.0 results view", view.withheld);
  return view.results;
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
