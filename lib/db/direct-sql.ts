import { ColumnTypeEnum, type ArgType, type SqlDriverAdapter, type SqlResultSet } from "@prisma/driver-adapter-utils";
import type { PrismaClient } from "../generated/prisma/client";

/** Where createPrismaClient leaves the client's driver adapter (a symbol, so it reads through the app's lazy proxy too). */
const DRIVER_ADAPTER = Symbol.for("framejury.driverAdapter");

/** The driver adapter a client is connected through, or null before its first query and after it disconnected. */
export type CurrentAdapter = () => SqlDriverAdapter | null;

/** Lets directRows send `client`'s statements to its driver adapter (lib/db/prisma.ts). */
export function attachDriverAdapter(client: PrismaClient, current: CurrentAdapter): void {
  Object.defineProperty(client, DRIVER_ADAPTER, { value: current });
}

/** A parameter the direct path sends as it is: the engine's statements pass JSON as text, ids and arrays of them. */
export type DirectValue = string | null | string[];

/**
 * A tag for a raw statement whose rows come back as `prisma.$queryRaw` returns them, but sent to the client's driver
 * adapter directly (with its reconnection, lib/db/reconnecting-adapter.ts). Prisma's raw path JSON-encodes the parameters and decodes
 * them again before the adapter gets them: the judge engine's batched statements carry hundreds of kilobytes of
 * JSON text, and that round trip was about 2% of a busy worker's CPU profile and a tenth of what it allocated
 * (`npm run bench:judge`, docs/benchmarks.md). Only for statements whose columns are of the types below; any other
 * column is an error, not a silently different value. A client without an adapter to reach (not made by
 * createPrismaClient, a transaction, or not yet connected) runs the statement through `$queryRaw`.
 */
export function directRows(prisma: PrismaClient) {
  return async <T>(strings: TemplateStringsArray, ...values: DirectValue[]): Promise<T[]> => {
    const adapter = (prisma as unknown as { [DRIVER_ADAPTER]?: CurrentAdapter })[DRIVER_ADAPTER]?.() ?? null;
    if (!adapter) return prisma.$queryRaw<T[]>(strings, ...values);
    const sql = strings.reduce((text, piece, i) => `${text}$${i}${piece}`);
    const result = await adapter.queryRaw({ sql, args: values, argTypes: values.map(argTypeOf) });
    return rowsOf<T>(result);
  };
}

const argTypeOf = (value: DirectValue): ArgType => ({
  scalarType: "string",
  arity: Array.isArray(value) ? "list" : "scalar",
});

/** Values of each column type as `$queryRaw` gives them; undefined: a type the direct path does not read. */
const READERS: Partial<Record<number, (value: unknown) => unknown>> = {
  [ColumnTypeEnum.Int32]: (v) => v,
  [ColumnTypeEnum.Float]: (v) => v,
  [ColumnTypeEnum.Double]: (v) => v,
  [ColumnTypeEnum.Boolean]: (v) => v,
  [ColumnTypeEnum.Character]: (v) => v,
  [ColumnTypeEnum.Text]: (v) => v,
  [ColumnTypeEnum.Enum]: (v) => v,
  [ColumnTypeEnum.Uuid]: (v) => v,
  [ColumnTypeEnum.TextArray]: (v) => v,
  // The adapter hands JSON over as its text, and timestamps as ISO text in UTC.
  [ColumnTypeEnum.Json]: (v) => JSON.parse(v as string),
  [ColumnTypeEnum.DateTime]: (v) => new Date(v as string),
};

function rowsOf<T>(result: SqlResultSet): T[] {
  const readers = result.columnTypes.map((type, i) => {
    const reader = READERS[type];
    if (!reader)
      throw new Error(
        `directRows cannot read column "${result.columnNames[i]}" (driver adapter column type ${type}): use prisma.$queryRaw for this statement.`,
      );
    return reader;
  });
  return result.rows.map((values) => {
    const row: Record<string, unknown> = {};
    result.columnNames.forEach((name, i) => (row[name] = values[i] === null ? null : readers[i]!(values[i])));
    return row as T;
  });
}
