import { afterEach, describe, expect, it, vi } from "vitest";
import { heldByProcess, holdForProcess, processOnce } from "./process-slot";

// Next.js loads one copy of a server module per route bundle; vi.resetModules() makes the next import a new copy.
async function freshCopy<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

afterEach(() => vi.resetModules());

describe("the process slot", () => {
  it("makes a thing once and hands every later caller the same one", () => {
    const before = heldByProcess<object>("metrics");
    try {
      holdForProcess("metrics", undefined);
      const made = { made: 1 };
      expect(processOnce("metrics", () => made)).toBe(made);
      expect(processOnce("metrics", () => ({ made: 2 }))).toBe(made);
      holdForProcess("metrics", undefined);
      expect(heldByProcess("metrics")).toBeUndefined();
    } finally {
      holdForProcess("metrics", before);
    }
  });

  it("is one per process however many copies of its module load", async () => {
    const first = await freshCopy(() => import("./process-slot"));
    const second = await freshCopy(() => import("./process-slot"));
    expect(second).not.toBe(first);
    const before = heldByProcess<object>("metrics");
    try {
      first.holdForProcess("metrics", undefined);
      const thing = first.processOnce("metrics", () => ({ copy: "first" }));
      expect(second.processOnce("metrics", () => ({ copy: "second" }))).toBe(thing);
    } finally {
      holdForProcess("metrics", before);
    }
  });

  it("gives each copy of an owner module the process's storage, logger, log context and database client", async () => {
    const storage = [
      await freshCopy(() => import("../storage/storage")),
      await freshCopy(() => import("../storage/storage")),
    ];
    expect(storage[1]).not.toBe(storage[0]);
    expect(storage[1]!.getStorage()).toBe(storage[0]!.getStorage());

    const logger = [
      await freshCopy(() => import("../observability/logger")),
      await freshCopy(() => import("../observability/logger")),
    ];
    expect(logger[1]!.rootLogger()).toBe(logger[0]!.rootLogger());
    const child = logger[0]!.rootLogger().child({ request: "r1" });
    expect(logger[0]!.withLogger(child, () => logger[1]!.log())).toBe(child);

    const db = [await freshCopy(() => import("../db/prisma")), await freshCopy(() => import("../db/prisma"))];
    expect(db[1]).not.toBe(db[0]);
    expect(await db[0]!.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    const client = heldByProcess<object>("prisma");
    expect(client).toBeDefined();
    expect(await db[1]!.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    expect(heldByProcess<object>("prisma")).toBe(client);
  });

  it("gives each copy of the metrics module the same registry", async () => {
    const first = await freshCopy(() => import("../observability/metrics"));
    const second = await freshCopy(() => import("../observability/metrics"));
    first.observeHttpRequest("GET", "/api/slot-test", 200, 0.01);
    second.observeHttpRequest("GET", "/api/slot-test", 200, 0.01);
    const { prisma } = await import("../db/prisma");
    const { body } = await second.renderMetrics(prisma);
    expect(body).toMatch(/framejury_http_request_duration_seconds_count\{[^}]*route="\/api\/slot-test"[^}]*\} 2/);
  });
});
