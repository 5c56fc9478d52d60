/**
 * The subscribers to the engine's events (lib/judge/engine/judge-events.ts), in the order they hear them. They are
 * wiring, so they live with the composition root, which hands them out (appContext().judgeEventSubscribers); a process
 * that judges gives them to its engine (scripts/worker.ts, the benchmark's deps, the tests' judge deps). The engine
 * only announces; spans, ensembles and the after-run work subscribe here.
 */
import type { JudgeEventSubscriber } from "../judge/engine/judge-events";
import { ensembleCombineSubscriber } from "../ensembles/ensemble-runs";
import { judgeSpanSubscriber } from "../spans/judge-spans-store";
import { afterRunSubscriber } from "../judge/runs/after-run";

export const JUDGE_EVENT_SUBSCRIBERS: readonly JudgeEventSubscriber[] = [
  judgeSpanSubscriber,
  ensembleCombineSubscriber,
  afterRunSubscriber,
];
