/**
 * The candidate-evaluation loop both alignments share (a rubric criterion's, lib/alignment/align-judge.ts, and a
 * built-in target's, lib/alignment/align-builtin.ts): the baseline on train, then each rewrite the optimizer
 * proposes from the best candidate's train disagreements, then the few-shot candidate, all within the budget that
 * keeps the held-out runs affordable. What a candidate is, how it is run and tuned, is the caller's; the order,
 * the budget stops, the skipped reasons and the progress steps are this loop's, the same for both.
 */
import type { BinaryAgreement } from "./agreement";
import { AlignmentCancelled } from "./alignment-cancelled";
import { type alignmentOptimizer, proposeRewrite, type Disagreement } from "./optimizer";

/** The calls and cost an alignment has spent, and whether more fits with the held-out runs still reserved. */
export class AlignmentBudget {
  calls = 0;
  costUsd = 0;
  /** The calls of one run of the pipeline per video: one until a caller measures it (a built-in's baseline). */
  callsPerVideo = 1;

  constructor(
    readonly limit: { maxCalls: number; maxCostUsd: number },
    private readonly heldOutVideos: number,
  ) {}

  /** The baseline and the best on held-out, reserved up front: the budget never stops an alignment before its answer. */
  reserve(): number {
    return 2 * this.heldOutVideos * this.callsPerVideo;
  }

  /** Whether a run over `videos` (and `extraCalls` more) fits, at the cost per call spent so far. */
  fits(videos: number, extraCalls = 0): boolean {
    const perCall = this.calls > 0 ? this.costUsd / this.calls : 0;
    const more = videos * this.callsPerVideo + extraCalls + this.reserve();
    return this.calls + more <= this.limit.maxCalls && this.costUsd + perCall * more <= this.limit.maxCostUsd;
  }

  spend(calls: number, costUsd: number): void {
    this.calls += calls;
    this.costUsd += costUsd;
  }

  /** Why the loop stopped, `where` saying before what ("after 1 rewrite(s)", "before the few-shot candidate"). */
  stoppedMessage(where: string): string {
    return `Stopped at the budget (${this.calls} of ${this.limit.maxCalls} calls, $${this.costUsd.toFixed(4)} of $${this.limit.maxCostUsd}) ${where}: the held-out runs are kept within it.`;
  }
}

/** What every candidate has: its id in the report, its train agreement and the train run its values came from. */
export interface LoopCandidate {
  id: string;
  train: BinaryAgreement;
  trainRunId: string;
}

/** A candidate added to the caller's list, with the train values it was scored on (its run's). */
export interface Evaluated<C extends LoopCandidate> {
  candidate: C;
  values: ReadonlyMap<string, number>;
}

export interface CandidateLoop<C extends LoopCandidate> {
  budget: AlignmentBudget;
  trainVideos: number;
  rewrites: number;
  optimizer: Awaited<ReturnType<typeof alignmentOptimizer>>;
  signal?: AbortSignal;
  progress: (message: string) => void;
  /** a's train agreement is better than `than`'s (the earliest wins a tie). */
  better: (a: BinaryAgreement, than: BinaryAgreement) => boolean;
  /** Runs the baseline on train and adds it (and what is tuned from it without a call). */
  baseline: () => Promise<Evaluated<C>>;
  /** The train units the parent gets wrong, with the judge's reasons and frames, for the optimizer. */
  disagreements: (parent: Evaluated<C>) => Promise<Disagreement[]>;
  /** What the optimizer rewrites: the target's name, the parent's definition (or template body), the scale in words. */
  rewriteSubject: (parent: Evaluated<C>) => { name: string; definition: string; scale: string };
  /** Runs and adds the rewrite of `parent` to the optimizer's `definition`; a string is why it was skipped. */
  rewrite: (parent: Evaluated<C>, definition: string) => Promise<Evaluated<C> | string>;
  /**
   * The few-shot candidate: null when none is asked for; a string when it is asked for but not offered (why);
   * else the call that runs and adds it from the best so far, or says why it could not (a string).
   */
  fewShot: null | string | ((parent: Evaluated<C>) => Promise<Evaluated<C> | string>);
}

export interface LoopOutcome<C extends LoopCandidate> {
  baseline: Evaluated<C>;
  /** The best candidate on train the rewrites and few-shot built on. */
  parent: Evaluated<C>;
  skipped: string[];
  stopped: string | null;
}

function checkCancel(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new AlignmentCancelled("The alignment was cancelled.");
}

/** The baseline, the rewrites and the few-shot candidate on train, in that order, within the budget. */
export async function evaluateCandidates<C extends LoopCandidate>(loop: CandidateLoop<C>): Promise<LoopOutcome<C>> {
  const { budget, signal } = loop;
  const skipped: string[] = [];
  let stopped: string | null = null;
  const baseline = await loop.baseline();
  loop.progress("baseline on train");
  let parent = baseline;
  for (let r = 0; r < loop.rewrites; r++) {
    if (!budget.fits(loop.trainVideos, 1)) {
      stopped = budget.stoppedMessage(`after ${r} rewrite(s)`);
      break;
    }
    checkCancel(signal);
    const disagreements = await loop.disagreements(parent);
    if (disagreements.length === 0) {
      skipped.push(`rewrite ${r + 1}: no train disagreements left to learn from`);
      break;
    }
    const proposal = await proposeRewrite(
      loop.optimizer.client,
      loop.optimizer.config,
      loop.rewriteSubject(parent),
      disagreements,
      signal,
    );
    budget.spend(1, proposal.costUsd);
    if ("error" in proposal) {
      skipped.push(`rewrite ${r + 1}: ${proposal.error}`);
      continue;
    }
    const entry = await loop.rewrite(parent, proposal.definition);
    if (typeof entry === "string") {
      skipped.push(`rewrite ${r + 1}: ${entry}`);
      continue;
    }
    loop.progress(`rewrite ${r + 1} on train`);
    if (loop.better(entry.candidate.train, parent.candidate.train)) parent = entry;
  }

  // Few-shot: the best so far with k train videos shown as examples; only train videos and their labels.
  if (typeof loop.fewShot === "string") skipped.push(`few-shot: ${loop.fewShot}`);
  if (typeof loop.fewShot === "function" && stopped === null) {
    if (!budget.fits(loop.trainVideos)) {
      stopped = budget.stoppedMessage("before the few-shot candidate");
    } else {
      checkCancel(signal);
      const entry = await loop.fewShot(parent);
      if (typeof entry === "string") skipped.push(`few-shot: ${entry}`);
      else loop.progress("few-shot on train");
    }
  }
  return { baseline, parent, skipped, stopped };
}
