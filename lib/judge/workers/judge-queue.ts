/** Where runs' work goes: pg-boss in the app, something simpler in tests. */
export interface JudgeQueue {
  enqueue(jobs: { runId: string; videoId: string }[]): Promise<void>;
  /** Starts a batch-mode run's batch checks (lib/judge/batch); a queue without it cannot take batch runs. */
  startBatchChecks?(runId: string): Promise<void>;
}
