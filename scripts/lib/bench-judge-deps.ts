import { workerJudgeDeps } from "../../lib/judge/app-judge";
import { EndpointLimiter } from "../../lib/judge/endpoints/endpoint-limiter";
import { guardedFetch } from "../../lib/judge/calls/guarded-fetch";
import type { JudgeDeps } from "../../lib/judge/engine/judge-video";
import { appContext } from "../../lib/app-context/app-context";

/**
 * The engine's dependencies as `npm run worker` has them (calls on undici, lib/judge/calls/guarded-fetch.ts), with each endpoint's
 * limits shared through PostgreSQL or, for a benchmark's `--limiter process`, kept in this process.
 */
export function benchJudgeDeps(limiter: "shared" | "process"): JudgeDeps {
  const processLimiters = new Map<string, EndpointLimiter>();
  return workerJudgeDeps({
    send: guardedFetch(),
    subscribers: appContext().judgeEventSubscribers,
    slotsFor:
      limiter === "process"
        ? (e) => {
            let found = processLimiters.get(e.id);
            if (!found)
              processLimiters.set(
                e.id,
                (found = new EndpointLimiter({
                  maxConcurrency: e.maxConcurrency,
                  requestsPerMinute: e.requestsPerMinute,
                })),
              );
            return found;
          }
        : undefined,
  });
}
