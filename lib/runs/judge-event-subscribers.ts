/**
 * The subscribers to the engine's events (lib/judge/engine/judge-events.ts), in the order they hear them. The
 * composition root hands them out (lib/app-context: judgeEventSubscribers), and a process that judges gives them to its
 * engine (scripts/worker.ts, the benchmark's deps, the tests' judge deps).
 */
import type { JudgeEventSubscriber } from "../judge/engine/judge-events";
import { ensembleCombineSubscriber } from "../ensembles/ensemble-runs";
import { judgeSpanSubscriber } from "../spans/judge-spans-store";
import { afterRunSubscriber } from "./after-run";

export const JUDGE_EVENT_SUBSCRIBERS: readonly JudgeEventSubscriber[] = [
  judgeSpanSubscriber,
  ensembleCombineSubscriber,
  afterRunSubscriber,
];
