import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies the committed migrations in prisma/migrations the way `prisma migrate deploy` does,
 * without Prisma's native schema engine (which these machines and air-gapped labs cannot download).
 *
 * It keeps `_prisma_migrations` in Prisma's own format (SHA-256 checksums of migration.sql,
 * started/finished timestamps, logs of a failure), takes the same advisory lock so two starting
 * processes don't race, and refuses to go on past a failed migration, as Prisma does (P3009).
 */

// Prisma's own advisory lock key for migrations, so this runner and the Prisma CLI exclude each other.
const ADVISORY_LOCK_KEY = 72707369;

export class MigrationError extends Error {}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: string): MigrationFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * A database that holds applied migrations this release does not have was migrated by a newer one: an older image
 * started against it after a rollback. Its code does not know that schema, so it stops here, naming them, instead of
 * starting on it.
 */
function refuseUnknownMigrations(done: ReadonlyMap<string, string>, known: MigrationFile[]) {
  const names = new Set(known.map((migration) => migration.name));
  const unknown = [...done.keys()].filter((name) => !names.has(name)).sort();
  if (unknown.length === 0) return;
  throw new MigrationError(
    `The database holds ${unknown.length} migration(s) this release does not have (${unknown.map((name) => `"${name}"`).join(", ")}): ` +
      `a newer release migrated it. This release does not run on a newer schema: start the newer release again, or ` +
      `restore a backup taken before the upgrade into an empty database (docs/deploy.md, "Upgrading").`,
  );
}

export interface MigrateResult {
  applied: string[];
  /** Applied migrations whose file changed since: Prisma warns about these too. */
  modified: string[];
}

export interface MigrateOptions {
  /** Stop after this migration (by folder name): tests that seed a database as an older release left it. */
  upTo?: string;
}

export async function applyMigrations(
  databaseUrl: string,
  migrationsDir: string,
  log: (line: string) => void = () => {},
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const all = readMigrations(migrationsDir);
  if (options.upTo !== undefined && !all.some((m) => m.name === options.upTo))
    throw new MigrationError(`No migration named "${options.upTo}".`);
  const migrations = options.upTo === undefined ? all : all.filter((m) => m.name <= options.upTo!);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum"            VARCHAR(64) NOT NULL,
        "finished_at"         TIMESTAMPTZ,
        "migration_name"      VARCHAR(255) NOT NULL,
        "logs"                TEXT,
        "rolled_back_at"      TIMESTAMPTZ,
        "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
      const rows = (
        await client.query<{
          migration_name: string;
          checksum: string;
          finished_at: Date | null;
          rolled_back_at: Date | null;
        }>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`)
      ).rows;

      const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
      if (failed.length > 0) {
        throw new MigrationError(
          `Migration ${failed.map((row) => `"${row.migration_name}"`).join(", ")} failed earlier and was not rolled back, ` +
            `so no further migrations are applied. Fix the database by hand, then mark it with ` +
            `'prisma migrate resolve --rolled-back <name>' (or --applied), and start again.`,
        );
      }

      const done = new Map(
        rows.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row.checksum]),
      );
      refuseUnknownMigrations(done, all);
      const modified = migrations.filter((m) => done.has(m.name) && done.get(m.name) !== m.checksum).map((m) => m.name);
      for (const name of modified) log(`warning: migration ${name} was modified after it was applied`);

      const applied: string[] = [];
      for (const migration of migrations) {
        if (done.has(migration.name)) continue;
        const id = randomUUID();
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 0)`,
          [id, migration.checksum, migration.name],
        );
        try {
          // One simple-protocol query: PostgreSQL runs the whole file in one implicit transaction,
          // so a failing statement leaves nothing of this migration behind.
          await client.query(migration.sql);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, message]);
          throw new MigrationError(
            `Migration "${migration.name}" failed: ${message}. Start-up stopped; nothing after it was applied.`,
          );
        }
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        applied.push(migration.name);
        log(`applied migration ${migration.name}`);
      }
      return { applied, modified };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}
