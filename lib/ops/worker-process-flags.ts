/**
 * V8 flags of a worker process: scripts/start.ts passes them to the workers it starts, `npm run worker` and
 * `npm run bench:judge` (whose process is the worker it measures) start node with them
 * (scripts/process-flags.test.ts checks package.json says the same).
 *
 * `--max-semi-space-size=64` (MiB; Node 20's default is 16): a worker judging hundreds of calls at once makes
 * garbage at a high rate (request bodies, answers, the batched writes' JSON), almost all of it dead within one
 * call. With 16 MiB semi-spaces the young generation fills every few milliseconds, and each scavenge copies the
 * calls still in flight, and promotes them to the old space after two, where a full collection must find them.
 * With 64 MiB, scavenges come a quarter as often and far fewer in-flight objects survive two. Measured at 256
 * calls in flight (bench:judge): garbage collection fell from about 16% to 8% of the worker's profile.
 * The cost: a worker's two semi-spaces may grow to 2 × 64 MiB instead of 2 × 16 MiB.
 * Unlike the web process's growing factor, V8 sizes the young generation when the process starts, so this flag
 * cannot be set at run time (v8.setFlagsFromString leaves the size as it was).
 */
export const WORKER_PROCESS_V8_FLAGS = ["--max-semi-space-size=64"] as const;
