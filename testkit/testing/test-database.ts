import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { databaseUrl, ensureDatabase, startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { applyMigrations } from "../../lib/db/migrate";
import { MIGRATIONS_DIR } from "../../lib/db/resolve-database";

export async function dropDatabase(baseUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export interface TestServer {
  /** URL of the maintenance database, for creating more databases. */
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for a test run: the server behind TEST_DATABASE_URL / DATABASE_URL
 * when one is set, otherwise a throw-away embedded server in a temporary folder.
 */
export async function startTestServer(): Promise<TestServer> {
  const external = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (external) return { baseUrl: databaseUrl(external, "postgres"), stop: async () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-test-pg-"));
  fs.chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({ dir: path.join(dir, "data") });
  return {
    baseUrl: server.baseUrl,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A database name no other test run uses, saying what it is for. */
const testDatabaseName = (label: string) =>
  `framejury_${label}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;

/** A fresh, migrated database on `server`, dropped again by `drop()`. */
export async function createTestDatabase(server: TestServer, label = "test") {
  const name = testDatabaseName(label);
  await ensureDatabase(server.baseUrl, name);
  const url = databaseUrl(server.baseUrl, name);
  await applyMigrations(url, MIGRATIONS_DIR);
  return { name, url, drop: () => dropDatabase(server.baseUrl, name) };
}

/**
 * A copy of `template` (a migrated test database no one is connected to) made by PostgreSQL from its files, which
 * takes a fraction of a second where migrating another database takes several.
 */
export async function copyTestDatabase(server: TestServer, template: string, label: string) {
  const name = testDatabaseName(label);
  const client = new pg.Client({ connectionString: server.baseUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`);
  } finally {
    await client.end();
  }
  return { name, url: databaseUrl(server.baseUrl, name), drop: () => dropDatabase(server.baseUrl, name) };
}

/**
 * A fresh database on `server` with the app's own client on it (createPrismaClient, waiting `maxWaitMs` for a lost
 * connection), and an admin connection that cuts the client's connections as a server restart would.
 */
export async function databaseWithCuttableClient(server: TestServer, label: string, maxWaitMs = 10_000) {
  const database = await createTestDatabase(server, label);
  const { createPrismaClient } = await import("../../lib/db/prisma");
  const prisma = createPrismaClient(database.url, { maxWaitMs });
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  return {
    url: database.url,
    prisma,
    /** Terminates every other session on the database that matches `where`; how many. */
    cutConnections: async (where = "true") =>
      (
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`,
        )
      ).rowCount ?? 0,
    /** Runs a statement as the admin, outside the client. */
    adminQuery: (sql: string) => admin.query(sql),
    close: async () => {
      await prisma.$disconnect();
      await admin.end();
      await database.drop();
    },
  };
}
