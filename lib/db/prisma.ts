import { PrismaPg } from "@prisma/adapter-pg";
import type { Pool } from "pg";
import { PrismaClient } from "../generated/prisma/client";
import { attachDriverAdapter } from "./direct-sql";
import { rootLogger } from "../observability/logger";
import { ReconnectingAdapterFactory, reconnectWaitMsFromEnv, type ReconnectPolicy } from "./reconnecting-adapter";
import { loggedClusterIdentity } from "./cluster-identity";
import { processOnce } from "../config/process-slot";

/**
 * A Prisma client on PostgreSQL that rides out a server restart: queries wait for the server for up
 * to DATABASE_RETRY_SECONDS (lib/db/reconnecting-adapter.ts), and so may transactions, whose time
 * limits are raised by that much. Its driver adapter is also reachable by lib/db/direct-sql.ts. `connection`: a URL, or
 * a node-postgres pool of one (the judge benchmark's counts its statements). Given a URL, each new connection is checked
 * to reach the same PostgreSQL cluster as the first (its system identifier), so a server that took the port while the
 * database was down is refused.
 */
export function createPrismaClient(connection: string | Pool, reconnect: Partial<ReconnectPolicy> = {}): PrismaClient {
  const maxWaitMs = reconnect.maxWaitMs ?? reconnectWaitMsFromEnv();
  // Every new connection of the client's own pool must reach the cluster its first one did (lib/db/cluster-identity.ts).
  const identity = loggedClusterIdentity();
  const pool =
    typeof connection === "string" ? { connectionString: connection, onConnect: identity.check } : connection;
  const adapter = new ReconnectingAdapterFactory(new PrismaPg(pool), {
    maxWaitMs,
    onOutage: ({ state, error, waitedMs, attempts }) => {
      if (state === "lost")
        rootLogger().warn(
          { error: describeConnectionError(error) },
          "lost the database connection; waiting for PostgreSQL to answer again",
        );
      else rootLogger().info({ waitedMs, attempts }, "the database answers again");
    },
    ...reconnect,
  });
  const client = new PrismaClient({
    adapter,
    transactionOptions: { maxWait: 2000 + maxWaitMs, timeout: 5000 + maxWaitMs },
  });
  attachDriverAdapter(client, () => adapter.current);
  return client;
}

/** The adapter's error in a few words: its class, message and the driver's kind or SQLSTATE. */
function describeConnectionError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { kind?: string; code?: string } }).cause;
  return [`${error.name}: ${error.message}`, cause?.kind, cause?.code].filter(Boolean).join(" · ");
}

function databaseUrlOrThrow(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set. Start FrameJury with `npm start` (it sets it) or set it yourself.");
  }
  return url;
}

/** The process's client (one per process: lib/config/process-slot.ts). */
export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  // Created on first use, so importing this module never needs a database (e.g. during `next build`).
  get(_target, property) {
    const client = processOnce("prisma", () => createPrismaClient(databaseUrlOrThrow()));
    const value = Reflect.get(client, property);
    return typeof value === "function" ? value.bind(client) : value;
  },
});
