/**
 * The process's one slot: the things a server process holds once, whatever module asks for them. Next.js loads one
 * copy of a server module per route bundle, so a module variable would be one per copy: several database pools,
 * several job queues, several metrics registries, loggers writing through different streams. A property of
 * `globalThis` is one per process, so the slot is that property, under one key, and this is the only module of lib/
 * that names `globalThis` (eslint.config.mjs forbids it elsewhere in lib/).
 *
 * Each thing has one owner module, which makes it on first use and is the only one to read or write its entry
 * (lib/app-context/app-context.ts lists them): the owners keep their own APIs (`prisma`, `getStorage()`, `jobBoss()`,
 * `getAuth()`, `rootLogger()`, the metrics), so their importers never see the slot.
 */

/** What the slot holds, by name, with the module that owns each entry. */
export type ProcessThing =
  /** The Prisma client (lib/db/prisma.ts). */
  | "prisma"
  /** The configured object storage (lib/storage/storage.ts). */
  | "storage"
  /** The pg-boss instance and whether it supervises (lib/jobs/job-boss.ts). */
  | "jobs"
  /** better-auth (lib/auth/auth.ts). */
  | "auth"
  /** The root logger and the request or job logger in context (lib/observability/logger.ts). */
  | "logger"
  | "logContext"
  /** The Prometheus registry and its metrics (lib/observability/metrics.ts). */
  | "metrics";

const SLOT = Symbol.for("framejury.process");

function slot(): Partial<Record<ProcessThing, unknown>> {
  const shared = globalThis as { [SLOT]?: Partial<Record<ProcessThing, unknown>> };
  shared[SLOT] ??= {};
  return shared[SLOT];
}

/** The process's `thing`, or undefined before its owner made it. `T` is what its owner stores. */
export function heldByProcess<T>(thing: ProcessThing): T | undefined {
  return slot()[thing] as T | undefined;
}

/** Makes `value` the process's `thing` (undefined: none, so the next use makes it again). */
export function holdForProcess<T>(thing: ProcessThing, value: T | undefined): void {
  if (value === undefined) delete slot()[thing];
  else slot()[thing] = value;
}

/** The process's `thing`, made by `make` on first use. */
export function processOnce<T>(thing: ProcessThing, make: () => T): T {
  const held = heldByProcess<T>(thing);
  if (held !== undefined) return held;
  const made = make();
  holdForProcess(thing, made);
  return made;
}
