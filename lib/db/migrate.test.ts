import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { databaseUrl, ensureDatabase } from "./embedded-postgres";
import { dropDatabase } from "../../testkit/testing/test-database";
import { applyMigrations, MigrationError, readMigrations } from "./migrate";
import { MIGRATIONS_DIR } from "./resolve-database";

const baseUrl = inject("serverBaseUrl");
const created: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `migrate_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await ensureDatabase(baseUrl, name);
  created.push(name);
  return databaseUrl(baseUrl, name);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function tempMigrations(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fj-migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

afterAll(async () => {
  for (const name of created) await dropDatabase(baseUrl, name);
});

describe("applyMigrations", () => {
  it("applies the committed migrations and records them as prisma migrate deploy does", async () => {
    const url = await freshDatabase();
    const result = await applyMigrations(url, MIGRATIONS_DIR);
    const files = readMigrations(MIGRATIONS_DIR);
    expect(result.applied).toEqual(files.map((file) => file.name));

    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      url,
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(files.map((file) => file.name));
    for (const [i, row] of rows.entries()) {
      const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.checksum).toBe(files[i]!.checksum);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
    }
    const tables = await query<{ table_name: string }>(
      url,
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["user", "session", "project", "project_member", "api_key"]),
    );

    expect((await applyMigrations(url, MIGRATIONS_DIR)).applied).toEqual([]);
  });

  it("applies each migration once when two processes start at the same time", async () => {
    const url = await freshDatabase();
    const dir = tempMigrations({
      "001_a": `CREATE TABLE counter (n int); INSERT INTO counter VALUES (1);`,
      "002_b": `UPDATE counter SET n = n + 1; SELECT pg_sleep(0.2);`,
    });
    const [first, second] = await Promise.all([applyMigrations(url, dir), applyMigrations(url, dir)]);
    expect([...first.applied, ...second.applied].sort()).toEqual(["001_a", "002_b"]);
    expect(await query<{ n: number }>(url, "SELECT n FROM counter")).toEqual([{ n: 2 }]);
  });

  it("stops at a failed migration, leaves nothing of it behind, and refuses to go on later", async () => {
    const url = await freshDatabase();
    const dir = tempMigrations({
      "001_ok": `CREATE TABLE a (id int);`,
      "002_broken": `CREATE TABLE b (id int); INSERT INTO missing_table VALUES (1);`,
      "003_after": `CREATE TABLE c (id int);`,
    });
    await expect(applyMigrations(url, dir)).rejects.toThrow(/Migration "002_broken" failed: .*missing_table/);
    const tables = (
      await query<{ table_name: string }>(
        url,
        `SELECT table_name FROM information_schema.tables WHERE table_schema='public'`,
      )
    ).map((t) => t.table_name);
    expect(tables).toContain("a");
    expect(tables).not.toContain("b"); // the failed file ran in one transaction
    expect(tables).not.toContain("c");
    const failed = await query<{ logs: string; finished_at: Date | null }>(
      url,
      `SELECT logs, finished_at FROM "_prisma_migrations" WHERE migration_name = '002_broken'`,
    );
    expect(failed[0]!.finished_at).toBeNull();
    expect(failed[0]!.logs).toMatch(/missing_table/);

    const again = applyMigrations(url, dir);
    await expect(again).rejects.toBeInstanceOf(MigrationError);
    await expect(applyMigrations(url, dir)).rejects.toThrow(/"002_broken" failed earlier/);
  });

  it("reports a migration whose file changed after it was applied", async () => {
    const url = await freshDatabase();
    const dir = tempMigrations({ "001_a": `CREATE TABLE a (id int);` });
    await applyMigrations(url, dir);
    fs.writeFileSync(path.join(dir, "001_a", "migration.sql"), `CREATE TABLE a (id bigint);`);
    const lines: string[] = [];
    const result = await applyMigrations(url, dir, (line) => lines.push(line));
    expect(result.modified).toEqual(["001_a"]);
    expect(lines.join("\n")).toMatch(/001_a was modified/);
  });

  it("refuses a database a newer release migrated (an older image after a rollback), naming its migrations", async () => {
    const url = await freshDatabase();
    const newer = tempMigrations({ "001_a": `CREATE TABLE a (id int);`, "002_b": `CREATE TABLE b (id int);` });
    await applyMigrations(url, newer);
    const older = tempMigrations({ "001_a": `CREATE TABLE a (id int);` });
    await expect(applyMigrations(url, older)).rejects.toThrow(MigrationError);
    await expect(applyMigrations(url, older)).rejects.toThrow(
      /1 migration\(s\) this release does not have \("002_b"\)/,
    );
    // A migration Prisma marked rolled back is not one the database holds.
    await query(
      url,
      `UPDATE "_prisma_migrations" SET rolled_back_at = now(), finished_at = NULL WHERE migration_name = '002_b'`,
    );
    expect((await applyMigrations(url, older)).applied).toEqual([]);
  });
});
