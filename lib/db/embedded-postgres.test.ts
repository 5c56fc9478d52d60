import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded-postgres";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "fj-embedded-"));
fs.chmodSync(root, 0o755);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function run(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("startEmbeddedPostgres", () => {
  it("starts a real server, lets a second process join it, and keeps data across restarts", async () => {
    const dir = path.join(root, "pg");
    const first = await startEmbeddedPostgres({ dir });
    expect(first.ownsServer).toBe(true);
    await run(first.baseUrl, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('survives');");

    const joined = await startEmbeddedPostgres({ dir });
    expect(joined.ownsServer).toBe(false);
    expect(joined.port).toBe(first.port);
    expect(await run(joined.baseUrl, "SELECT v FROM kept")).toEqual([{ v: "survives" }]);

    await first.stop();
    expect(fs.existsSync(path.join(dir, "postmaster.pid"))).toBe(false);

    const again = await startEmbeddedPostgres({ dir });
    expect(again.ownsServer).toBe(true);
    expect(await run(again.baseUrl, "SELECT v FROM kept")).toEqual([{ v: "survives" }]);
    expect((await run(again.baseUrl, "SHOW server_version"))[0].server_version).toMatch(/^\d+/);
    await again.stop();
  });
});
