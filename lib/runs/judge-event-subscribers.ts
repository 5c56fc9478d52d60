/**
 * The subscribers to the engine's events (lib/judge/engine/judge-events.ts), in the order they hear them, as a process
 * that judges hands them to its engine where it starts (scripts/worker.ts, the benchmark's, the tests' judge deps).
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
