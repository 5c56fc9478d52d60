import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  chooseCliDatabase,
  clearRunningApp,
  describeCliDatabase,
  readRunningApp,
  recordRunningApp,
} from "./running-app";
import { runCli } from "./run-cli";

const dirs: string[] = [];
function tempFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "running-app-"));
  dirs.push(dir);
  return path.join(dir, "running-app.json");
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const alive = () => true;

describe("the CLI joins the running app's database", () => {
  it("joins the data folder the running demo recorded when neither DATABASE_URL nor DATA_DIR is set", () => {
    const file = tempFile();
    recordRunningApp({ pid: process.pid, startedBy: "npm run demo", dataDir: "/srv/checkout/.data/demo" }, file);
    const choice = chooseCliDatabase({}, readRunningApp(file), alive);
    expect(choice).toEqual({
      kind: "join",
      dataDir: "/srv/checkout/.data/demo",
      note: `the running app's (npm run demo, process ${process.pid})`,
    });
  });

  it("DATABASE_URL or DATA_DIR given win over the running app", () => {
    const app = { pid: 1, startedBy: "npm run demo", dataDir: "/x/.data/demo" };
    expect(chooseCliDatabase({ DATABASE_URL: "postgres://h/db" }, app, alive).kind).toBe("as-configured");
    expect(chooseCliDatabase({ DATA_DIR: "/elsewhere" }, app, alive).kind).toBe("as-configured");
  });

  it("ignores a record whose process has ended, and an unreadable record", () => {
    const file = tempFile();
    recordRunningApp({ pid: 424242, startedBy: "npm start", dataDir: "/x/.data" }, file);
    expect(chooseCliDatabase({}, readRunningApp(file), () => false).kind).toBe("as-configured");
    fs.writeFileSync(file, '{"pid": "not a number"');
    expect(readRunningApp(file)).toBeNull();
    fs.writeFileSync(file, JSON.stringify({ pid: -3, startedBy: "x", dataDir: null }));
    expect(readRunningApp(file)).toBeNull();
  });

  it("clears only its own record", () => {
    const file = tempFile();
    recordRunningApp({ pid: process.pid + 1, startedBy: "npm start", dataDir: "/x/.data" }, file);
    clearRunningApp(process.pid, file);
    expect(readRunningApp(file)?.pid).toBe(process.pid + 1);
    recordRunningApp({ pid: process.pid, startedBy: "npm start", dataDir: "/x/.data" }, file);
    clearRunningApp(process.pid, file);
    expect(readRunningApp(file)).toBeNull();
  });

  it("refuses (exit 1, nothing written) when the running app uses DATABASE_URL and the CLI has none", async () => {
    const file = tempFile();
    recordRunningApp({ pid: process.pid, startedBy: "npm start", dataDir: null }, file);
    const err: string[] = [];
    const code = await runCli(
      ["create-user", "--email", "refused@example.test", "--password", "password-1"],
      { stdout: () => {}, stderr: (s) => err.push(s) },
      { env: {}, runningAppFile: file },
    );
    expect(code).toBe(1);
    expect(err.join("\n")).toMatch(/running app \(npm start, process \d+\) uses DATABASE_URL/);
  });

  it("says which database it used, without the password", async () => {
    const err: string[] = [];
    const code = await runCli(
      ["create-api-key", "--email", "ghost-db-line@example.test"],
      { stdout: () => {}, stderr: (s) => err.push(s) },
      { runningAppFile: tempFile() },
    );
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^database: DATABASE_URL \(/);
    expect(
      describeCliDatabase({ url: "postgres://u:secret@db.example:5432/fj", embedded: false, clusterDir: null }, null),
    ).toBe("database: DATABASE_URL (db.example:5432/fj)");
    expect(
      describeCliDatabase(
        { url: "x", embedded: true, clusterDir: "/c/.data/demo/postgres" },
        "the running app's (npm run demo, process 7)",
      ),
    ).toBe("database: the embedded PostgreSQL in /c/.data/demo/postgres, the running app's (npm run demo, process 7)");
  });
});
