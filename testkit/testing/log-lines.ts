import type pino from "pino";
import { holdForProcess } from "../../lib/config/process-slot";
import { createLogger, logLevelFromEnv } from "../../lib/observability/logger";

/** Sends the process's log lines to `destination` from now on (tests read them from memory). */
export function setLogDestination(destination: pino.DestinationStream, level?: string): void {
  const logger = createLogger(destination);
  if (level) logger.level = logLevelFromEnv(level);
  holdForProcess("logger", logger);
}
