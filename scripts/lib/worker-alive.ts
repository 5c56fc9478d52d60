import fs from "node:fs";

/**
 * A worker's liveness, for the image's health check (deploy/docker/healthcheck.mjs) and the Kubernetes liveness probe:
 * the worker has no HTTP server, so it writes the time to a file every `everyMs` from its event loop; a file older
 * than the health check's limit means the process is wedged. It asks nothing of the database, so an outage of
 * PostgreSQL does not get workers restarted.
 */
export function keepAlive(file: string, everyMs = 10_000): () => void {
  const touch = () => {
    try {
      fs.writeFileSync(file, `${Date.now()}\n`);
    } catch {
      // A file that cannot be written reads as a wedged worker to the health check: nothing else to do here.
    }
  };
  touch();
  const timer = setInterval(touch, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
