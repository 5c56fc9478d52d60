import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import {
  databaseUrl,
  ensureDatabase,
  startEmbeddedPostgres,
  type EmbeddedServer,
} from "../../lib/db/embedded-postgres";
import { applyMigrations } from "../../lib/db/migrate";
import { MIGRATIONS_DIR } from "../../lib/db/resolve-database";

/**
 * A PostgreSQL server of the test's own, in a temporary folder, with one migrated database: for
 * tests that stop and start the server, which they must never do to the shared test server.
 */
export async function startOwnDatabase(label: string) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `framejury-${label}-`));
  fs.chmodSync(folder, 0o755);
  const dir = path.join(folder, "postgres");
  // Not the embedded server's default port, which every other test server tries first: while this one is stopped,
  // another would take it, and this one could not start again.
  let server: EmbeddedServer = await startEmbeddedPostgres({ dir, port: await freePort() });
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

/** A port the system says is free now (one of its ephemeral ports). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
