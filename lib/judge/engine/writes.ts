/** Helpers of the engine's step writes: the keys a step's end names, and writes that run while the step goes on. */
import type { StepRow } from "./step-store";

/** Writes nobody waits for one by one, but all of them before the video ends (a failure is handled at once and thrown then). */
export class Writes {
  private readonly all: Promise<unknown>[] = [];
  add(write: Promise<unknown>) {
    this.all.push(
      write.then(
        () => null,
        (error: unknown) => ({ error }),
      ),
    );
  }
  async settled() {
    const failed = (await Promise.all(this.all)).find((outcome) => outcome !== null) as { error: unknown } | undefined;
    if (failed) throw failed.error;
  }
}

export const stepKeys = (job: { runId: string; videoId: string }, row: StepRow) => ({
  id: row.id,
  runId: job.runId,
  videoId: job.videoId,
  itemId: row.itemId,
  stepId: row.stepId,
  scopeIndex: row.scopeIndex,
});

/** An error with its stack and causes, for the server log only. */
export function describeForLog(error: unknown): string {
  const parts: string[] = [];
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && depth < 5;
    e = e instanceof Error ? e.cause : undefined, depth++
  ) {
    parts.push(e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e));
  }
  return parts.join("\ncaused by: ");
}
