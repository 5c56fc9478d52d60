import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { z } from "zod";
import { copyOut } from "./pg-copy";
import { TarWriter } from "./tar";

export const BACKUP_FORMAT = "framejury-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = "manifest.json";
export const STORAGE_SUMS_ENTRY = "storage-sha256.txt";
export const SECRET_ENTRY = "secret";
/** The schemas a backup copies: the app's tables. pg-boss's job tables are not copied (see restore). */
const SCHEMAS = ["public"];

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.string(),
  framejury: z.object({ version: z.string(), node: z.string() }),
  postgres: z.object({ serverVersion: z.string(), database: z.string() }),
  migrations: z.array(z.string()),
  tables: z.array(
    z.object({
      schema: z.string(),
      name: z.string(),
      columns: z.array(z.string()),
      rows: z.number().int().min(0),
      file: z.string(),
      sha256: z.string(),
    }),
  ),
  storage: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("local"), files: z.number().int().min(0), bytes: z.number().int().min(0) }),
    z.object({ kind: z.literal("not_copied"), location: z.string(), reason: z.string() }),
  ]),
  secret: z.object({
    source: z.enum(["data_dir", "environment", "none"]),
    included: z.boolean(),
    /** HMAC of a fixed text under the secret: tells a restore whether its secret is the same, without revealing it. */
    check: z.string().nullable(),
  }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export interface BackupOptions {
  databaseUrl: string;
  out: string;
  /** The local store's folder, or where the objects are when they are not local (S3: documented, not copied). */
  storage: { kind: "local"; dir: string } | { kind: "not_copied"; location: string; reason: string };
  /** The secret in use: from DATA_DIR/secret (copied unless `include` is false) or the environment (never copied). */
  secret:
    | { source: "data_dir"; value: string; include: boolean }
    | { source: "environment"; value: string }
    | { source: "none" };
  log?(line: string): void;
}

export function secretCheck(secret: string): string {
  return createHmac("sha256", secret).update("framejury-backup-secret-check").digest("hex");
}

/**
 * Writes one archive: every table of the app's schema as COPY text (gzip), from one consistent
 * snapshot (REPEATABLE READ, so the app may keep running), then the local storage folder as files
 * with their SHA-256, optionally DATA_DIR/secret, and last the manifest (versions, migrations, row
 * counts). Nothing but Node.js is needed: the embedded server ships no pg_dump.
 */
export async function createBackup(options: BackupOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => {});
  const out = path.resolve(options.out);
  if (fs.existsSync(out)) throw new Error(`${out} exists already; a backup never overwrites a file.`);
  const work = await fsp.mkdtemp(path.join(path.dirname(out), `.${path.basename(out)}.`));
  const tar = await TarWriter.create(out);
  let finished = false;
  try {
    const database = await dumpDatabase(options.databaseUrl, work, log);
    for (const table of database.tables) {
      const file = path.join(work, table.file);
      const { size } = await fsp.stat(file);
      await tar.add(table.file, fs.createReadStream(file), { size });
      await fsp.rm(file);
    }

    let storage: BackupManifest["storage"];
    if (options.storage.kind === "local") {
      const copied = await archiveStorage(tar, options.storage.dir, log);
      storage = { kind: "local", files: copied.files, bytes: copied.bytes };
    } else {
      log(`storage is not copied: ${options.storage.reason}`);
      storage = { kind: "not_copied", location: options.storage.location, reason: options.storage.reason };
    }

    const secret = options.secret;
    const included = secret.source === "data_dir" && secret.include;
    if (included) await tar.add(SECRET_ENTRY, Buffer.from(secret.value), { mode: 0o600 });

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      framejury: { version: appVersion(), node: process.version },
      postgres: { serverVersion: database.serverVersion, database: database.name },
      migrations: database.migrations,
      tables: database.tables,
      storage,
      secret: { source: secret.source, included, check: secret.source === "none" ? null : secretCheck(secret.value) },
    };
    await tar.add(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await tar.close();
    finished = true;
    return manifest;
  } finally {
    if (!finished) {
      await tar.abort();
      await fsp.rm(out, { force: true });
    }
    await fsp.rm(work, { recursive: true, force: true });
  }
}

interface DumpedDatabase {
  name: string;
  serverVersion: string;
  migrations: string[];
  tables: BackupManifest["tables"];
}

async function dumpDatabase(databaseUrl: string, work: string, log: (line: string) => void): Promise<DumpedDatabase> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One snapshot for every table, read-only: the copy is consistent while the app keeps writing.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const serverVersion = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0]!
      .server_version;
    const name = (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]!.db;
    const hasMigrations = (await client.query(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present`))
      .rows[0].present as boolean;
    if (!hasMigrations) throw new Error("This database has no FrameJury tables (_prisma_migrations is missing).");
    const migrations = (
      await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      )
    ).rows.map((row) => row.migration_name);
    const tables = (await tablesWithColumns(client)).map((t) => ({
      ...t,
      file: `database/${t.schema}.${t.name}.copy.gz`,
    }));
    const dumped: BackupManifest["tables"] = [];
    for (const table of tables) {
      const file = path.join(work, table.file);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const hash = createHash("sha256");
      const raw = new PassThrough();
      const written = pipeline(raw, createGzip(), hashing(hash), fs.createWriteStream(file, { mode: 0o600 }));
      const select = `COPY (SELECT ${table.columns.map((c) => pg.escapeIdentifier(c)).join(", ")} FROM ${qualified(table)}) TO STDOUT`;
      let rows: number;
      try {
        rows = await copyOut(client, select, raw);
      } finally {
        raw.end();
      }
      await written;
      dumped.push({ ...table, rows, sha256: hash.digest("hex") });
      log(`copied ${table.schema}.${table.name}: ${rows} rows`);
    }
    await client.query("COMMIT");
    return { name, serverVersion, migrations, tables: dumped };
  } finally {
    await client.end();
  }
}

/** Ordinary and partitioned tables of the app's schemas (not partitions), with their stored columns. */
export async function tablesWithColumns(
  client: pg.ClientBase,
): Promise<{ schema: string; name: string; columns: string[] }[]> {
  const result = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY n.nspname, c.relname
      ORDER BY n.nspname, c.relname`,
    [SCHEMAS],
  );
  return result.rows;
}

export function qualified(table: { schema: string; name: string }): string {
  return `${pg.escapeIdentifier(table.schema)}.${pg.escapeIdentifier(table.name)}`;
}

/** Adds every file under the local store's folder as storage/<path>, with a SHA-256 list. */
async function archiveStorage(
  tar: TarWriter,
  dir: string,
  log: (line: string) => void,
): Promise<{ files: number; bytes: number }> {
  const sums: string[] = [];
  let bytes = 0;
  for (const relative of await filesUnder(dir)) {
    const file = path.join(dir, relative);
    let size: number;
    try {
      size = (await fsp.stat(file)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // removed meanwhile (a finished upload's chunk)
      throw error;
    }
    const hash = createHash("sha256");
    // Exactly the size seen now: a staged upload that grows meanwhile is copied as it was.
    const body = size === 0 ? Readable.from([]) : fs.createReadStream(file, { start: 0, end: size - 1 });
    await tar.add(`storage/${relative}`, body.pipe(hashing(hash)), { size });
    sums.push(`${hash.digest("hex")}  ${relative}`);
    bytes += size;
  }
  await tar.add(STORAGE_SUMS_ENTRY, Buffer.from(sums.map((line) => `${line}\n`).join("")));
  log(`copied storage: ${sums.length} files, ${bytes} bytes`);
  return { files: sums.length, bytes };
}

export async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await walk("");
  return files;
}

export function hashing(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
}

function appVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.resolve("package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}
