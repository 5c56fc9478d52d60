import { PgBoss } from "pg-boss";
import type { JudgeDeps } from "./engine/judge-video";
import { judgeVideo } from "./engine/judge-video";
import type { JudgeQueue } from "./runs";

export const JUDGE_QUEUE = "judge-video";

/**
 * pg-boss on the app's own PostgreSQL. One job per (run, video). A worker that dies stops sending
 * heartbeats; the job then goes back to the queue and another worker resumes it (finished steps
 * are kept, see judgeVideo).
 */
export async function startBoss(connectionString: string, options: { supervise: boolean }): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    supervise: options.supervise,
    schedule: false,
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on("error", (error) => console.error("[pg-boss]", error));
  await boss.start();
  await boss.createQueue(JUDGE_QUEUE, { heartbeatSeconds: 10, retryLimit: 20, retryDelay: 1, retryBackoff: true, retryDelayMax: 30, expireInSeconds: 4 * 3600 });
  return boss;
}

export function pgBossQueue(boss: PgBoss): JudgeQueue {
  return {
    async enqueue(jobs) {
      for (let i = 0; i < jobs.length; i += 500) {
        await boss.insert(
          JUDGE_QUEUE,
          jobs.slice(i, i + 500).map((job) => ({ data: job, singletonKey: `${job.runId}:${job.videoId}` })),
        );
      }
    },
  };
}

export async function startJudgeWorker(boss: PgBoss, deps: JudgeDeps, options: { concurrency: number }) {
  const pollingIntervalSeconds = 0.5;
  const ids: string[] = [];
  // One polling loop per video slot, started spread over the polling interval: loops started together
  // poll together, so a new run would wait up to a whole interval for its first job to be picked up.
  for (let i = 0; i < options.concurrency; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, (pollingIntervalSeconds * 1000) / options.concurrency));
    ids.push(
      await boss.work<{ runId: string; videoId: string }>(JUDGE_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
        if (job) await judgeVideo(deps, job.data);
      }),
    );
  }
  return ids;
}
