import path from "node:path";
import { dataDir } from "../config/paths";
import { databaseUrl, ensureDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations } from "./migrate";

export const MIGRATIONS_DIR = path.resolve("prisma/migrations");

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  /** The embedded cluster's folder (null with DATABASE_URL). */
  clusterDir: string | null;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded server under DATA_DIR/postgres (started, or joined
 * when another FrameJury process already runs it). Pending migrations are applied either way, unless
 * `migrate` is false (backup and restore, which must not change the schema on their own).
 */
export async function resolveDatabase(
  log: (line: string) => void = () => {},
  options: {
    migrate?: boolean;
    /** The data folder to use instead of DATA_DIR's (the CLI joining a running app). */ dataDir?: string;
  } = {},
): Promise<ResolvedDatabase> {
  let resolved: ResolvedDatabase;
  if (process.env.DATABASE_URL) {
    resolved = { url: process.env.DATABASE_URL, embedded: false, clusterDir: null, stop: async () => {} };
  } else {
    const port = process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : undefined;
    const server = await startEmbeddedPostgres({ dir: path.join(options.dataDir ?? dataDir(), "postgres"), port, log });
    await ensureDatabase(server.baseUrl, "framejury");
    resolved = {
      url: databaseUrl(server.baseUrl, "framejury"),
      embedded: true,
      clusterDir: server.clusterDir,
      stop: () => server.stop(),
    };
  }
  if (options.migrate !== false) await applyMigrations(resolved.url, MIGRATIONS_DIR, log);
  return resolved;
}
