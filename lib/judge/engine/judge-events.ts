/**
 * What the engine announces: a video closed (its summary and metrics are stored), and a run finished (a video's close
 * ended its run). The work that follows (judge spans, an ensemble's combine, a pipeline's after-run work) subscribes
 * where the process starts (JudgeDeps.subscribers): the engine names none of it, so it imports none of its folders.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import type { FrameTimes } from "../../frames/frame-times";
import type { PipelineDefinition, ScoreRow, StepOutputs, VideoContext } from "../../task-modules/pipeline-types";
import { describeForLog } from "./writes";

/** The run a video of was closed, as the subscribers need it. */
export interface ClosedRun {
  id: string;
  projectId: string;
  /** The ensemble this run is a member of. */
  parentRunId: string | null;
  /** The run's settings, as stored with the run. */
  settings: unknown;
}

export interface VideoClosed {
  kind: "video closed";
  run: ClosedRun;
  videoId: string;
  pipeline: PipelineDefinition;
  /** The video's finished answers, as the engine holds them at the close. */
  answers: { scores: ScoreRow[]; context: VideoContext; outputs: StepOutputs };
  /** The video's frame times as the job read them; null: none stored when the job was read. */
  frameTimes: FrameTimes | null;
}

export interface RunFinished {
  kind: "run finished";
  run: ClosedRun;
  pipeline: PipelineDefinition;
}

export type JudgeEvent = VideoClosed | RunFinished;
export type JudgeEventKind = JudgeEvent["kind"];

/** What a subscriber is handed beside the event: the worker's database, storage and log, and a test's pipelines. */
export interface JudgeEventDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
  pipelines?: Readonly<Record<string, PipelineDefinition>>;
  log?(line: string): void;
}

export interface JudgeEventSubscriber {
  /** Names it in the log line of its failure ("judge spans of video … in run …: why"). */
  readonly name: string;
  /**
   * Whether it wants this kind of event of a run of this pipeline. The engine reads whether a close finished its run
   * only when a subscriber wants "run finished" of the pipeline, so a video's close costs no extra statement otherwise.
   */
  wants(kind: JudgeEventKind, pipeline: PipelineDefinition): boolean;
  heard(deps: JudgeEventDeps, event: JudgeEvent): Promise<void>;
  /**
   * What its failure does. "logged": it is logged and the video stays done (what it keeps says why itself, as judge
   * spans keep judge_span_failure). "fails the job": logged, and once every subscriber has heard the event the video's
   * job fails, so its retry closes the video again and the work is tried again (an ensemble's combine).
   */
  readonly onFailure: "logged" | "fails the job";
}

/**
 * Hands the event to each subscriber that wants it, in their order, one after the other. A failure never stops the
 * subscribers after it; a "fails the job" failure is thrown once all have heard.
 */
export async function announce(
  deps: JudgeEventDeps & { subscribers?: readonly JudgeEventSubscriber[] },
  event: JudgeEvent,
): Promise<void> {
  const log = deps.log ?? console.error;
  let jobFailure: { error: unknown } | null = null;
  for (const subscriber of deps.subscribers ?? []) {
    if (!subscriber.wants(event.kind, event.pipeline)) continue;
    try {
      await subscriber.heard(deps, event);
    } catch (error) {
      log(`${subscriber.name} ${whereOf(event)}: ${describeForLog(error)}`);
      if (subscriber.onFailure === "fails the job") jobFailure ??= { error };
    }
  }
  if (jobFailure) throw jobFailure.error;
}

/** Whether any subscriber wants this kind of event of the pipeline's runs. */
export function anyoneWants(
  subscribers: readonly JudgeEventSubscriber[] | undefined,
  kind: JudgeEventKind,
  pipeline: PipelineDefinition,
): boolean {
  return (subscribers ?? []).some((subscriber) => subscriber.wants(kind, pipeline));
}

function whereOf(event: JudgeEvent): string {
  switch (event.kind) {
    case "video closed":
      return `of video ${event.videoId} in run ${event.run.id}`;
    case "run finished":
      return `after run ${event.run.id} finished`;
    default: {
      const unknown: never = event;
      throw new Error(`Unknown judge event ${JSON.stringify(unknown)}`);
    }
  }
}
