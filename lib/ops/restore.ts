import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import pg from "pg";
import type { PrismaClient } from "../generated/prisma/client";
import { applyMigrations, readMigrations } from "../db/migrate";
import type { JudgeQueue } from "../judge/workers/judge-queue";
import {
  filesUnder,
  hashing,
  manifestSchema,
  MANIFEST_ENTRY,
  qualified,
  SECRET_ENTRY,
  secretCheck,
  STORAGE_SUMS_ENTRY,
  tablesWithColumns,
  type BackupManifest,
} from "./backup";
import { copyIn } from "./pg-copy";
import { listTar, readTarEntry, type TarEntry } from "./tar";

export class RestoreRefused extends Error {}

export interface RestoreOptions {
  archive: string;
  /** An empty database (no tables): a fresh embedded one, or a new database on DATABASE_URL's server. */
  databaseUrl: string;
  migrationsDir: string;
  /** Where the local store's files go (must be empty or absent); null when storage is not local (S3). */
  storageDir: string | null;
  /** DATA_DIR/secret of the target, written from the archive when the archive has it. */
  secretFile: string;
  /** APP_SECRET, when the target takes its secret from the environment. */
  environmentSecret: string | undefined;
  log?(line: string): void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  rows: Record<string, number>;
  storageFiles: number;
  secret: "restored" | "environment_matches" | "not_in_backup";
  warnings: string[];
}

/**
 * Restores an archive made by createBackup. Everything is checked before anything is written (format,
 * migrations this code knows, an empty database, an empty storage folder, the secret); then the
 * schema is migrated to the backup's migration, every table is loaded in one transaction (foreign keys
 * re-added and checked at the end, each table's row count and file hash checked against the manifest),
 * newer migrations are applied, and the store's files are written with their SHA-256 checked.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const warnings: string[] = [];
  const entries = new Map((await listTar(options.archive)).map((entry) => [entry.name, entry]));
  const manifestEntry = entries.get(MANIFEST_ENTRY);
  if (!manifestEntry) throw new RestoreRefused(`${options.archive} is not a FrameJury backup (no ${MANIFEST_ENTRY}).`);
  const parsed = manifestSchema.safeParse(JSON.parse(await readText(options.archive, manifestEntry)));
  if (!parsed.success)
    throw new RestoreRefused(
      `${options.archive} has a manifest this version cannot read: ${parsed.error.issues[0]?.message}`,
    );
  const manifest = parsed.data;
  for (const table of manifest.tables)
    if (!entries.has(table.file)) throw new RestoreRefused(`The archive lacks ${table.file}.`);

  const known = new Set(readMigrations(options.migrationsDir).map((m) => m.name));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new RestoreRefused(
      `The backup was made by a newer FrameJury (migrations ${unknown.join(", ")} are unknown here); restore it with that version or a later one.`,
    );
  }
  const secret = await checkSecret(manifest, entries, options);
  if (secret.warning) warnings.push(secret.warning);
  if (options.storageDir && manifest.storage.kind === "local" && (await filesUnder(options.storageDir)).length > 0) {
    throw new RestoreRefused(
      `The storage folder ${options.storageDir} is not empty; restore into a fresh DATA_DIR (or an empty STORAGE_DIR).`,
    );
  }
  if (manifest.storage.kind === "local" && !options.storageDir) {
    warnings.push(
      "The backup holds local storage but this installation does not store locally: its files were not restored.",
    );
  }
  if (manifest.storage.kind === "not_copied")
    warnings.push(
      `Storage was not in the backup (${manifest.storage.reason}); restore ${manifest.storage.location} separately.`,
    );
  await assertEmptyDatabase(options.databaseUrl);

  // The schema as it was when the backup was made, then the rows, then anything newer.
  const last = manifest.migrations.at(-1);
  if (last) await applyMigrations(options.databaseUrl, options.migrationsDir, log, { upTo: last });
  const rows = await loadTables(options.databaseUrl, options.archive, manifest, log);
  const newer = await applyMigrations(options.databaseUrl, options.migrationsDir, log);
  if (newer.applied.length > 0) log(`applied ${newer.applied.length} newer migration(s)`);

  let storageFiles = 0;
  if (options.storageDir && manifest.storage.kind === "local") {
    storageFiles = await restoreStorage(options.archive, entries, options.storageDir);
    if (storageFiles !== manifest.storage.files)
      throw new Error(`Restored ${storageFiles} storage files, but the manifest lists ${manifest.storage.files}.`);
    log(`restored storage: ${storageFiles} files`);
  }
  if (secret.restore) {
    await fsp.mkdir(path.dirname(options.secretFile), { recursive: true });
    await fsp.writeFile(options.secretFile, secret.restore, { mode: 0o600, flag: "wx" });
  }
  return { manifest, rows, storageFiles, secret: secret.outcome, warnings };
}

async function checkSecret(
  manifest: BackupManifest,
  entries: Map<string, TarEntry>,
  options: RestoreOptions,
): Promise<{ outcome: RestoreResult["secret"]; restore?: string; warning?: string }> {
  const lost = "stored endpoint API keys will not decrypt (enter them again on the Judge page) and sessions end";
  if (options.environmentSecret) {
    if (manifest.secret.check && secretCheck(options.environmentSecret) !== manifest.secret.check) {
      return {
        outcome: "environment_matches",
        warning: `APP_SECRET is not the secret the backup was made with: ${lost}.`,
      };
    }
    return { outcome: "environment_matches" };
  }
  if (manifest.secret.included) {
    if (fs.existsSync(options.secretFile))
      throw new RestoreRefused(`${options.secretFile} exists already; restore into a fresh DATA_DIR.`);
    const entry = entries.get(SECRET_ENTRY);
    if (!entry)
      throw new RestoreRefused(`The manifest says the secret is included, but the archive lacks ${SECRET_ENTRY}.`);
    return { outcome: "restored", restore: await readText(options.archive, entry) };
  }
  const from = manifest.secret.source === "environment" ? "APP_SECRET from the environment" : "no secret";
  return {
    outcome: "not_in_backup",
    warning: manifest.secret.check
      ? `The backup was made with ${from} and does not hold it: set the same APP_SECRET, or ${lost}.`
      : undefined,
  };
}

async function assertEmptyDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname IN ('public', 'pgboss')`,
    );
    if (rows[0]!.n > 0) {
      throw new RestoreRefused(
        "The target database is not empty. Restore into a fresh DATA_DIR, or point DATABASE_URL at a new, empty database.",
      );
    }
  } finally {
    await client.end();
  }
}

/** Loads every table's rows in one transaction; returns the row counts, each checked against the manifest. */
async function loadTables(
  databaseUrl: string,
  archive: string,
  manifest: BackupManifest,
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const entries = new Map((await listTar(archive)).map((entry) => [entry.name, entry]));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
  try {
    await client.query("BEGIN");
    const present = new Map((await tablesWithColumns(client)).map((t) => [`${t.schema}.${t.name}`, t]));
    // Foreign keys are dropped while loading (tables arrive in any order, some refer to themselves)
    // and added again at the end, which checks every row against them.
    const foreignKeys = (
      await client.query<{ table: string; name: string; definition: string }>(
        `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
           FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
      )
    ).rows;
    for (const fk of foreignKeys)
      await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${pg.escapeIdentifier(fk.name)}`);
    const withTriggers = (
      await client.query<{ table: string }>(
        `SELECT DISTINCT tgrelid::regclass::text AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace`,
      )
    ).rows;
    for (const { table } of withTriggers) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);

    for (const table of manifest.tables) {
      const key = `${table.schema}.${table.name}`;
      const target = present.get(key);
      if (!target)
        throw new Error(
          `The table ${key} of the backup does not exist after migrating to ${manifest.migrations.at(-1)}.`,
        );
      const missing = table.columns.filter((column) => !target.columns.includes(column));
      if (missing.length > 0) throw new Error(`${key} has no column(s) ${missing.join(", ")} after migrating.`);
      if (table.name === "_prisma_migrations") {
        // The migrations just applied are replaced by the backup's own history of them.
        await client.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = ANY($1)`, [manifest.migrations]);
      }
      const hash = createHash("sha256");
      const source = readTarEntry(archive, entries.get(table.file)!);
      const hashed = source.pipe(hashing(hash));
      const rows = await copyIn(
        client,
        `COPY ${qualified(table)} (${table.columns.map((c) => pg.escapeIdentifier(c)).join(", ")}) FROM STDIN`,
        hashed.pipe(createGunzip()),
      );
      if (hash.digest("hex") !== table.sha256)
        throw new Error(`${table.file} is damaged (its SHA-256 differs from the manifest's).`);
      if (rows !== table.rows) throw new Error(`${key}: loaded ${rows} rows, the manifest says ${table.rows}.`);
      counts[key] = rows;
      log(`restored ${key}: ${rows} rows`);
    }

    for (const { table } of withTriggers) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    for (const fk of foreignKeys)
      await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${pg.escapeIdentifier(fk.name)} ${fk.definition}`);
    // Sequences owned by columns continue after the restored values.
    const sequences = (
      await client.query<{ sequence: string; table: string; column: string }>(
        `SELECT s.oid::regclass::text AS sequence, t.oid::regclass::text AS table, a.attname AS column
           FROM pg_class s
           JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')
           JOIN pg_class t ON t.oid = d.refobjid
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
          WHERE s.relkind = 'S' AND t.relnamespace = 'public'::regnamespace`,
      )
    ).rows;
    for (const s of sequences) {
      await client.query(
        `SELECT setval($1::regclass, coalesce((SELECT max(${pg.escapeIdentifier(s.column)}) FROM ${s.table}), 0) + 1, false)`,
        [s.sequence],
      );
    }
    await client.query("COMMIT");
    return counts;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

async function restoreStorage(archive: string, entries: Map<string, TarEntry>, storageDir: string): Promise<number> {
  const sumsEntry = entries.get(STORAGE_SUMS_ENTRY);
  if (!sumsEntry) throw new Error(`The archive lacks ${STORAGE_SUMS_ENTRY}.`);
  const sums = new Map(
    (await readText(archive, sumsEntry))
      .split("\n")
      .filter(Boolean)
      .map((line) => [line.slice(66), line.slice(0, 64)] as const),
  );
  let restored = 0;
  for (const [relative, expected] of sums) {
    const entry = entries.get(`storage/${relative}`);
    if (!entry) throw new Error(`The archive lacks storage/${relative}.`);
    if (relative.split("/").some((part) => part === ".." || part === "." || part === "") || path.isAbsolute(relative)) {
      throw new Error(`Refusing the unsafe storage path ${relative}.`);
    }
    const target = path.join(storageDir, relative);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.restore-${randomBytes(4).toString("hex")}`;
    const hash = createHash("sha256");
    await pipeline(readTarEntry(archive, entry), hashing(hash), fs.createWriteStream(partial, { flags: "wx" }));
    if (hash.digest("hex") !== expected) {
      await fsp.rm(partial, { force: true });
      throw new Error(`storage/${relative} is damaged (its SHA-256 differs from the archive's list).`);
    }
    await fsp.rename(partial, target);
    restored++;
  }
  return restored;
}

async function readText(archive: string, entry: TarEntry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of readTarEntry(archive, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * pg-boss's jobs are not in a backup: every video of an unfinished run goes back on the queue
 * (one job per run and video, as when the run was started), and a worker resumes it, keeping the
 * steps that were finished.
 */
export async function requeueUnfinishedRuns(prisma: PrismaClient, queue: JudgeQueue): Promise<number> {
  const open = await prisma.runVideo.findMany({
    where: { status: { in: ["queued", "running"] }, run: { status: { in: ["queued", "running"] } } },
    select: { runId: true, videoId: true },
  });
  if (open.length > 0) await queue.enqueue(open);
  return open.length;
}
