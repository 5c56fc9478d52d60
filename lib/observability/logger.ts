import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type Logger } from "pino";
import { processOnce } from "../config/process-slot";

export type { Logger };

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** LOG_LEVEL (default info); an unknown value falls back to info rather than stopping the process. */
export function logLevelFromEnv(value = process.env.LOG_LEVEL): (typeof LEVELS)[number] {
  const level = (value ?? "info").trim().toLowerCase();
  return (LEVELS as readonly string[]).includes(level) ? (level as (typeof LEVELS)[number]) : "info";
}

/**
 * The process's JSON logger (pino, one object per line on stdout). One per process (lib/config/process-slot.ts):
 * Next.js may load this module more than once, and every copy must write through the same stream.
 */
export function rootLogger(): Logger {
  // Synchronous: a line is written before the process can exit or crash.
  return processOnce("logger", () => createLogger(pino.destination({ dest: 1, sync: true })));
}

/** A JSON logger writing to `destination` at LOG_LEVEL. */
export function createLogger(destination: pino.DestinationStream): Logger {
  const logger = pino(
    {
      level: logLevelFromEnv(),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  if (process.env.LOG_LEVEL && logLevelFromEnv() !== process.env.LOG_LEVEL.trim().toLowerCase()) {
    logger.warn({ logLevel: process.env.LOG_LEVEL }, `LOG_LEVEL must be one of ${LEVELS.join(", ")}; using info`);
  }
  return logger;
}

function context(): AsyncLocalStorage<Logger> {
  return processOnce("logContext", () => new AsyncLocalStorage<Logger>());
}

/** The logger of the request (with its request id) or job being handled, else the root logger. */
export function log(): Logger {
  return context().getStore() ?? rootLogger();
}

/** The logger of the request or job being handled, if any. */
export function contextLogger(): Logger | undefined {
  return context().getStore();
}

/** Runs `work` with `logger` as what log() returns inside it (across awaits). */
export function withLogger<T>(logger: Logger, work: () => T): T {
  return context().run(logger, work);
}
