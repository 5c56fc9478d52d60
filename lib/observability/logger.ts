import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type Logger } from "pino";

export type { Logger };

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** LOG_LEVEL (default info); an unknown value falls back to info rather than stopping the process. */
export function logLevelFromEnv(value = process.env.LOG_LEVEL): (typeof LEVELS)[number] {
  const level = (value ?? "info").trim().toLowerCase();
  return (LEVELS as readonly string[]).includes(level) ? (level as (typeof LEVELS)[number]) : "info";
}

const globalForLog = globalThis as unknown as {
  frameJuryLogger?: Logger;
  frameJuryLogContext?: AsyncLocalStorage<Logger>;
};

/**
 * The process's JSON logger (pino, one object per line on stdout). Kept on globalThis: Next.js may
 * load this module more than once, and every copy must write through the same stream.
 */
export function rootLogger(): Logger {
  // Synchronous: a line is written before the process can exit or crash.
  globalForLog.frameJuryLogger ??= createLogger(pino.destination({ dest: 1, sync: true }));
  return globalForLog.frameJuryLogger;
}

/** Sends the process's log lines to `destination` from now on (tests read them from memory). */
export function setLogDestination(destination: pino.DestinationStream, level?: string): void {
  globalForLog.frameJuryLogger = createLogger(destination);
  if (level) globalForLog.frameJuryLogger.level = logLevelFromEnv(level);
}

function createLogger(destination: pino.DestinationStream): Logger {
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
  globalForLog.frameJuryLogContext ??= new AsyncLocalStorage<Logger>();
  return globalForLog.frameJuryLogContext;
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
