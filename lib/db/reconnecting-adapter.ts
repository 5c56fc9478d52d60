import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
  TransactionOptions,
} from "@prisma/driver-adapter-utils";

export interface ReconnectPolicy {
  /** How long one query keeps waiting for the database to come back before failing. */
  maxWaitMs: number;
  /** The pause before the first look at a lost database; it doubles after each look that fails, up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  sleep?(ms: number): Promise<void>;
  now?(): number;
  /** Told once per outage and once when the database answers again (after `attempts` looks). */
  onOutage?(event: { state: "lost" | "back"; error?: unknown; waitedMs?: number; attempts?: number }): void;
}

/** DATABASE_RETRY_SECONDS (default 60): how long queries wait for a restarting PostgreSQL. */
export function reconnectWaitMsFromEnv(): number {
  const seconds = Number(process.env.DATABASE_RETRY_SECONDS ?? 60);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
}

const CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN"]);
const LOST_CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection/i;

/**
 * Whether an error means "the server went away" (restart, failover, network) rather than "the
 * query was wrong": socket errors, SQLSTATE class 08 (connection exception) and 57P01–57P03
 * (admin shutdown, crash shutdown, cannot connect now), as the PrismaPg adapter or pg report them.
 */
export function isConnectionLoss(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const record = e as {
      name?: string;
      code?: unknown;
      kind?: unknown;
      message?: unknown;
      cause?: unknown;
      originalCode?: unknown;
    };
    if (typeof record.kind === "string") {
      if (CONNECTION_KINDS.has(record.kind)) return true;
      if (record.kind === "postgres" && typeof record.code === "string" && sqlStateIsConnectionLoss(record.code))
        return true;
    }
    if (typeof record.code === "string" && (SOCKET_CODES.has(record.code) || sqlStateIsConnectionLoss(record.code)))
      return true;
    if (typeof record.originalCode === "string" && sqlStateIsConnectionLoss(record.originalCode)) return true;
    if (typeof record.message === "string" && LOST_CONNECTION_MESSAGES.test(record.message)) return true;
    e = record.cause;
  }
  return false;
}

function sqlStateIsConnectionLoss(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03";
}

/**
 * Wraps a Prisma driver adapter factory (PrismaPg) so that a PostgreSQL restart costs time, not work:
 * - a query outside a transaction that fails because the connection was lost is sent again once the
 *   server answers, for up to `maxWaitMs`;
 * - a transaction whose connection was lost is opened again and its statements so far are replayed on
 *   the new connection, each of which must return exactly what it returned the first time (else the
 *   original error is thrown, since the application may have decided on those results); then the
 *   failed statement runs. A lost COMMIT is never retried: it may have committed. Once COMMIT or ROLLBACK was
 *   asked (Prisma's own timeout sends a ROLLBACK), no replay opens a transaction again, and one under way is
 *   rolled back: a transaction that cannot be restored fails and rolls back, never leaving one "idle in
 *   transaction" that holds its locks, nor writes committed outside it.
 * One edge remains: a statement outside a transaction whose connection broke after the server ran it
 * but before the answer arrived runs twice. Its effects are the same for every write FrameJury makes
 * outside transactions except increments, and the window is one round trip at the moment of the outage.
 */
export class ReconnectingAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider: SqlMigrationAwareDriverAdapterFactory["provider"];
  readonly adapterName: string;
  /** The adapter the client connected through last, until it is disposed (lib/db/direct-sql.ts sends to it). */
  current: SqlDriverAdapter | null = null;

  constructor(
    private readonly inner: SqlMigrationAwareDriverAdapterFactory,
    private readonly policy: ReconnectPolicy,
  ) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    const inner = await this.inner.connect();
    const probe = () => inner.queryRaw({ sql: "SELECT 1", args: [], argTypes: [] });
    const adapter: ReconnectingAdapter = new ReconnectingAdapter(inner, new Waiter(this.policy, probe), () => {
      if (this.current === adapter) this.current = null;
    });
    this.current = adapter;
    return adapter;
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.inner.connectToShadowDb();
  }
}

interface Waiting {
  deadline: number;
  resolve(): void;
  reject(error: unknown): void;
}

interface Outage {
  since: number;
  lastError: unknown;
  waiting: Set<Waiting>;
}

/**
 * Holds a client's queries while its database is lost. One look at a time asks whether the server is back (`probe`,
 * a trivial query on a new connection, which is checked to be the same cluster: lib/db/cluster-identity.ts), after a
 * pause that doubles from `initialDelayMs` to `maxDelayMs`; every query waits for that answer instead of connecting
 * on its own. A client with a hundred queries in flight otherwise knocked a hundred times per pause, several times a
 * second in all. A query whose `maxWaitMs` has passed fails with the last connection error; the looks stop when no
 * query waits any more. The outage is reported once, and its end.
 */
class Waiter {
  private outage: Outage | null = null;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly policy: ReconnectPolicy,
    private readonly probe: () => Promise<unknown>,
  ) {
    this.now = policy.now ?? Date.now;
    this.sleep = policy.sleep ?? defaultSleep;
  }

  async retry<T>(operation: () => Promise<T>): Promise<T> {
    const deadline = this.now() + this.policy.maxWaitMs;
    while (true) {
      if (this.outage) await this.waitForServer(this.outage, deadline);
      try {
        return await operation();
      } catch (error) {
        if (!isConnectionLoss(error) || this.now() >= deadline) throw error;
        this.lost(error);
      }
    }
  }

  get maxWaitMs() {
    return this.policy.maxWaitMs;
  }

  get clock() {
    return this.now;
  }

  private waitForServer(outage: Outage, deadline: number): Promise<void> {
    return new Promise<void>((resolve, reject) => outage.waiting.add({ deadline, resolve, reject }));
  }

  private lost(error: unknown) {
    if (this.outage) {
      this.outage.lastError = error;
      return;
    }
    const outage: Outage = { since: this.now(), lastError: error, waiting: new Set() };
    this.outage = outage;
    this.policy.onOutage?.({ state: "lost", error });
    void this.lookUntilBack(outage);
  }

  private async lookUntilBack(outage: Outage) {
    let delay = this.policy.initialDelayMs ?? 100;
    let nextLook = this.now() + delay;
    let attempts = 0;
    while (true) {
      // Wakes for the next look, or before it for the first waiting query's deadline: that query fails then.
      const firstDeadline = Math.min(...[...outage.waiting].map((waiting) => waiting.deadline));
      await this.sleep(Math.max(0, Math.min(nextLook, firstDeadline) - this.now()));
      const now = this.now();
      for (const waiting of outage.waiting) {
        if (now < waiting.deadline) continue;
        outage.waiting.delete(waiting);
        waiting.reject(outage.lastError);
      }
      if (outage.waiting.size === 0) break;
      if (now < nextLook) continue;
      attempts++;
      try {
        await this.probe();
      } catch (error) {
        if (isConnectionLoss(error)) {
          outage.lastError = error;
          delay = Math.min(delay * 2, this.policy.maxDelayMs ?? 2000);
          nextLook = this.now() + delay;
          continue;
        }
        // Any other failure of the probe (its statement refused) is an answer: the server is back.
      }
      this.policy.onOutage?.({ state: "back", waitedMs: this.now() - outage.since, attempts });
      break;
    }
    this.outage = null;
    for (const waiting of outage.waiting) waiting.resolve();
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class ReconnectingAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter["provider"];
  readonly adapterName: string;

  constructor(
    private readonly inner: SqlDriverAdapter,
    private readonly waiter: Waiter,
    private readonly onDispose: () => void,
  ) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.waiter.retry(() => this.inner.queryRaw(query));
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.waiter.retry(() => this.inner.executeRaw(query));
  }

  executeScript(script: string): Promise<void> {
    return this.waiter.retry(() => this.inner.executeScript(script));
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const open = () => this.waiter.retry(() => this.inner.startTransaction(isolationLevel));
    return new ReplayingTransaction(await open(), open, this.waiter);
  }

  getConnectionInfo() {
    return this.inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }

  dispose(): Promise<void> {
    this.onDispose();
    return this.inner.dispose();
  }
}

type Step =
  | { kind: "query"; query: SqlQuery; result: string }
  | { kind: "execute"; query: SqlQuery; result: number }
  | { kind: "savepoint"; action: "create" | "rollback" | "release"; name: string };

/** The statements that end a transaction: never sent again, and no replay opens another after them. */
const endsTransaction = (query: SqlQuery) => /^\s*(COMMIT|ROLLBACK)\b/i.test(query.sql);

class ReplayingTransaction implements Transaction {
  readonly provider: Transaction["provider"];
  readonly adapterName: string;
  readonly options: TransactionOptions;
  private readonly steps: Step[] = [];
  /** The replay under way, which every statement waits for before it is sent. */
  private replaying: Promise<void> | null = null;
  /** Why the transaction can no longer go on: a replay that did not succeed. */
  private failed: unknown = null;
  /** COMMIT or ROLLBACK was asked (Prisma's timeout among them): no replay may open a transaction after it. */
  private ended = false;

  constructor(
    private inner: Transaction,
    private readonly open: () => Promise<Transaction>,
    private readonly waiter: Waiter,
  ) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    this.options = inner.options;
  }

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    const result = await this.run(query, (tx) => tx.queryRaw(query));
    this.steps.push({ kind: "query", query, result: fingerprint(result) });
    return result;
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    const result = await this.run(query, (tx) => tx.executeRaw(query));
    this.steps.push({ kind: "execute", query, result });
    return result;
  }

  commit(): Promise<void> {
    this.ended = true;
    return this.inner.commit();
  }

  /** Waits for a replay under way, so that the transaction it opened is the one rolled back. */
  async rollback(): Promise<void> {
    this.ended = true;
    if (this.replaying) await this.replaying;
    return this.inner.rollback();
  }

  async createSavepoint(name: string): Promise<void> {
    await this.run(null, (tx) => tx.createSavepoint!(name));
    this.steps.push({ kind: "savepoint", action: "create", name });
  }

  async rollbackToSavepoint(name: string): Promise<void> {
    await this.run(null, (tx) => tx.rollbackToSavepoint!(name));
    this.steps.push({ kind: "savepoint", action: "rollback", name });
  }

  async releaseSavepoint(name: string): Promise<void> {
    await this.run(null, (tx) => tx.releaseSavepoint!(name));
    this.steps.push({ kind: "savepoint", action: "release", name });
  }

  /**
   * Runs one statement; on a lost connection, replays the transaction so far on a new one and tries again. Statements
   * of one transaction may be in flight together (a `Promise.all` inside it) and lose the connection together: one
   * replay serves them all, and a statement that failed on a connection already replaced is only sent again on the
   * new one. Two replays side by side would each open a transaction, and the one left behind would sit "idle in
   * transaction" holding the replayed writes' locks, so the other's replay waited on it for good.
   */
  private async run<T>(query: SqlQuery | null, statement: (tx: Transaction) => Promise<T>): Promise<T> {
    const deadline = this.waiter.clock() + this.waiter.maxWaitMs;
    if (query && endsTransaction(query)) this.ended = true;
    while (true) {
      if (this.replaying) await this.replaying;
      const sentOn = this.inner;
      try {
        return await statement(sentOn);
      } catch (error) {
        if (!isConnectionLoss(error) || this.ended || this.waiter.clock() > deadline) throw error;
        if (this.failed) throw this.failed;
        if (this.inner === sentOn && !this.replaying)
          this.replaying = this.replay(error, deadline)
            .catch((replayError: unknown) => {
              this.failed = replayError;
            })
            .finally(() => {
              this.replaying = null;
            });
        await this.replaying;
        if (this.failed) throw this.failed;
      }
    }
  }

  /**
   * Opens a new transaction and replays the steps so far on it. Whatever ends it without success (a read that would
   * see something else, the wait's deadline, another error) rolls the new transaction back before it is reported,
   * and the transaction stays failed: no statement of it runs again.
   */
  private async replay(original: unknown, deadline: number): Promise<void> {
    while (true) {
      // The broken connection goes back to the pool, which drops it.
      await this.inner.rollback().catch(() => {});
      if (this.ended) throw original;
      this.inner = await this.open();
      try {
        if (this.ended) throw new ReplayDiverged(original);
        for (const step of this.steps) {
          if (step.kind === "savepoint") {
            const action = {
              create: "createSavepoint",
              rollback: "rollbackToSavepoint",
              release: "releaseSavepoint",
            } as const;
            await this.inner[action[step.action]]!(step.name);
          } else if (step.kind === "query") {
            if (fingerprint(await this.inner.queryRaw(step.query)) !== step.result) throw new ReplayDiverged(original);
          } else if ((await this.inner.executeRaw(step.query)) !== step.result) {
            throw new ReplayDiverged(original);
          }
        }
        return;
      } catch (error) {
        if (error instanceof ReplayDiverged) {
          await this.inner.rollback().catch(() => {});
          throw original;
        }
        if (!isConnectionLoss(error) || this.waiter.clock() > deadline) {
          await this.inner.rollback().catch(() => {});
          throw error;
        }
      }
    }
  }
}

class ReplayDiverged extends Error {
  constructor(readonly original: unknown) {
    super("A replayed statement returned something else the second time.");
  }
}

function fingerprint(result: SqlResultSet): string {
  return JSON.stringify([result.columnNames, result.rows], (_key, value: unknown) =>
    typeof value === "bigint"
      ? `${value}n`
      : value instanceof Uint8Array
        ? Buffer.from(value).toString("base64")
        : value,
  );
}
