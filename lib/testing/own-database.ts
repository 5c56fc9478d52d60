import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseUrl, ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "../db/embedded-postgres";
import { applyMigrations } from "../db/migrate";
import { MIGRATIONS_DIR } from "../db/resolve-database";

/**
 * A PostgreSQL server of the test's own, in a temporary folder, with one migrated database: for
 * tests that stop and start the server, which they must never do to the shared test server.
 */
export async function startOwnDatabase(label: string) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `framejury-${label}-`));
  fs.chmodSync(folder, 0o755);
  const dir = path.join(folder, "postgres");
  let server: EmbeddedServer = await startEmbeddedPostgres({ dir });
  const port = server.port;
  await ensureDatabase(server.baseUrl, "framejury");
  const url = databaseUrl(server.baseUrl, "framejury");
  await applyMigrations(url, MIGRATIONS_DIR);
  return {
    url,
    /** Stops the server (a fast shutdown: sessions are cut, as when PostgreSQL restarts). */
    stopServer: () => server.stop(),
    /** Starts it again on the same port and data. */
    startServer: async () => {
      server = await startEmbeddedPostgres({ dir, port });
    },
    remove: async () => {
      await server.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
