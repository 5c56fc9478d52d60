import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PrismaClient } from "../generated/prisma/client";
import { databaseWithCuttableClient } from "../../testkit/testing/test-database";
import { directRows } from "./direct-sql";
import { createPrismaClient } from "./prisma";

// A database of its own: one test cuts every other connection to it, as a restart would.
let database: Awaited<ReturnType<typeof databaseWithCuttableClient>>;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await databaseWithCuttableClient({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "direct_sql");
  prisma = database.prisma;
  // Connected: the direct path needs the client's adapter.
  await prisma.$queryRaw`SELECT 1`;
});
afterAll(async () => {
  await database?.close();
});

// Text that JSON and SQL quoting get wrong first: quotes, backslashes, newlines, non-ASCII, a NUL-free control character.
const awkward = `it's "quoted" \\ back\\slashed\nnew line, ünïcödé 🎞️, tab\t, bell\u0007`;
const json = JSON.stringify({ text: awkward, n: 1.5, list: [1, null, "x"], nested: { ok: true } });

describe("directRows", () => {
  it("returns the rows $queryRaw returns, for every column type it reads", async () => {
    const rows = <T>(
      tag: (strings: TemplateStringsArray, ...values: (string | string[] | null)[]) => Promise<T[]>,
    ) => tag`
      SELECT ${awkward}::text AS text, 42::int AS int, 2.5::float8 AS double, 1.25::real AS real, true AS bool,
        ${json}::jsonb AS jsonb, ${json}::json AS json, 'null'::jsonb AS "jsonNull", NULL::jsonb AS "sqlNull",
        '2026-11-27 01:02:03.456'::timestamp(3) AS at, ${["a", awkward, "c"]}::text[] AS list, 'running'::"StepStatus" AS status,
        'c'::char AS "char", gen_random_uuid() IS NOT NULL AS "hasUuid", ${null}::text AS "nullParam"
      FROM generate_series(1, 2)`;
    const direct = await rows(directRows(prisma));
    const viaPrisma = await rows(<T>(strings: TemplateStringsArray, ...values: unknown[]) =>
      prisma.$queryRaw<T[]>(strings, ...values),
    );
    expect(direct).toEqual(viaPrisma);
    expect(direct[0]).toMatchObject({
      text: awkward,
      int: 42,
      jsonb: JSON.parse(json),
      list: ["a", awkward, "c"],
      nullParam: null,
    });
    expect((direct[0] as { at: Date }).at.toISOString()).toBe("2026-11-27T01:02:03.456Z");
  });

  it("goes to the driver adapter: a column it cannot read as $queryRaw would is an error, not another value", async () => {
    // $queryRaw gives a bigint here; the direct path does not read int8 and says so.
    expect(await prisma.$queryRaw`SELECT 1::int8 AS n`).toEqual([{ n: 1n }]);
    await expect(directRows(prisma)`SELECT 1::int8 AS n`).rejects.toThrow(
      /cannot read column "n".*use prisma\.\$queryRaw/,
    );
  });

  it("runs the statement through $queryRaw for a client it cannot reach the adapter of", async () => {
    const plain = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) });
    try {
      expect(await directRows(plain)`SELECT 1::int8 AS n, ${"x"}::text AS t`).toEqual([{ n: 1n, t: "x" }]);
    } finally {
      await plain.$disconnect();
    }
  });

  it("rides out a cut connection as the client's own queries do", async () => {
    await directRows(prisma)`SELECT 1 AS one`;
    expect(await database.cutConnections()).toBeGreaterThan(0);
    expect(await directRows(prisma)<{ one: number }>`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("falls back to $queryRaw once the client has disconnected, and reaches the adapter again when it reconnects", async () => {
    const own = createPrismaClient(database.url, { maxWaitMs: 1000 });
    await own.$queryRaw`SELECT 1`;
    await own.$disconnect();
    // Disconnected: $queryRaw (which connects again), not a disposed adapter.
    expect(await directRows(own)`SELECT 1::int8 AS n`).toEqual([{ n: 1n }]);
    await expect(directRows(own)`SELECT 1::int8 AS n`).rejects.toThrow(/cannot read column/);
    await own.$disconnect();
  });
});
