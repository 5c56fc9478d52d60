import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Which database the running app uses, so the admin CLI joins it whichever command started the app
 * (`npm run demo` keeps its data in .data/demo, `npm start` in .data). The file sits at a fixed place
 * in the checkout, not under DATA_DIR: the CLI reads it precisely when it does not know DATA_DIR.
 * It never holds a connection string (DATABASE_URL carries a password): only the data folder, or the
 * fact that the app uses DATABASE_URL.
 */
export const RUNNING_APP_FILE = path.resolve(/* turbopackIgnore: true */ ".data/running-app.json");

const runningAppSchema = z.object({
  pid: z.number().int().positive(),
  /** "npm start" or "npm run demo": named in the CLI's output. */
  startedBy: z.string().max(100),
  /** The app's DATA_DIR when it runs the embedded server; null when it uses DATABASE_URL. */
  dataDir: z.string().max(4096).nullable(),
});

export type RunningApp = z.infer<typeof runningAppSchema>;

export function recordRunningApp(app: RunningApp, file: string = RUNNING_APP_FILE): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(app) + "\n", { mode: 0o600 });
}

/** Removes the record when it is this process's (a second app may have written its own since). */
export function clearRunningApp(pid: number = process.pid, file: string = RUNNING_APP_FILE): void {
  if (readRunningApp(file)?.pid === pid) fs.rmSync(file, { force: true });
}

/** The record, or null when there is none or it is unreadable (a half-written or hand-edited file). */
export function readRunningApp(file: string = RUNNING_APP_FILE): RunningApp | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = runningAppSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type CliDatabaseChoice =
  /** Act as configured (DATABASE_URL or DATA_DIR given, or no app running); `note` says why. */
  | { kind: "as-configured"; note: string | null }
  /** Join the running app's embedded server: run with DATA_DIR = dataDir. */
  | { kind: "join"; dataDir: string; note: string }
  /** The running app uses DATABASE_URL, which the CLI cannot learn: it must be given. */
  | { kind: "refuse"; message: string };

/**
 * Which database the CLI acts on. DATABASE_URL or DATA_DIR, when given, win. Otherwise the running
 * app's: its embedded server's folder, or a refusal naming DATABASE_URL when the app uses one (acting
 * on the default embedded database then would write where the app never reads).
 */
export function chooseCliDatabase(
  env: Record<string, string | undefined>,
  app: RunningApp | null,
  isAlive: (pid: number) => boolean = processIsAlive,
): CliDatabaseChoice {
  if (env.DATABASE_URL) return { kind: "as-configured", note: null };
  if (env.DATA_DIR) return { kind: "as-configured", note: null };
  if (!app || !isAlive(app.pid)) return { kind: "as-configured", note: null };
  if (app.dataDir === null) {
    return {
      kind: "refuse",
      message:
        `the running app (${app.startedBy}, process ${app.pid}) uses DATABASE_URL: set DATABASE_URL to the same value ` +
        `to act on its database (or DATA_DIR to act on an embedded one on purpose)`,
    };
  }
  return { kind: "join", dataDir: app.dataDir, note: `the running app's (${app.startedBy}, process ${app.pid})` };
}

/** The line the CLI prints about the database it used: where it is, never a password. */
export function describeCliDatabase(
  database: { url: string; embedded: boolean; clusterDir: string | null },
  why: string | null,
): string {
  const where = database.embedded
    ? `the embedded PostgreSQL in ${database.clusterDir}`
    : `DATABASE_URL (${hostAndDatabase(database.url)})`;
  return `database: ${where}${why ? `, ${why}` : ""}`;
}

function hostAndDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "unparsable URL";
  }
}
