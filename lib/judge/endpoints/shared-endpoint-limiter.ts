import { randomInt, randomUUID } from "node:crypto";
import os from "node:os";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { EndpointLimiter, type SlotSource } from "./endpoint-limiter";
import {
  admitCallStart,
  othersWaiting,
  pauseEndpoint,
  releaseSlot,
  renewSlots,
  takeSlots,
  type Waiter,
} from "./endpoint-slots";
import { LlmError } from "../calls/llm-client";

export interface SharedLimitSettings {
  /**
   * How long a concurrency slot stays held without renewal: a worker that dies frees its slots within
   * this time (ENDPOINT_LEASE_SECONDS). Live holders renew every third of it.
   */
  leaseMs: number;
  /** The window `requestsPerMinute` counts in: a minute; tests shorten it (ENDPOINT_RATE_WINDOW_SECONDS). */
  rateWindowMs: number;
  /** A slot's turn in a process (LOCAL_REUSE_MS unless given; tests shorten it). */
  turnMs?: number;
}

const secondsSetting = (fallback: number) => z.coerce.number().positive().max(3600).default(fallback);
const settingsSchema = z.object({
  ENDPOINT_LEASE_SECONDS: secondsSetting(15),
  ENDPOINT_RATE_WINDOW_SECONDS: secondsSetting(60),
});

export function sharedLimitSettings(env: Record<string, string | undefined> = process.env): SharedLimitSettings {
  const parsed = settingsSchema.safeParse({
    ENDPOINT_LEASE_SECONDS: env.ENDPOINT_LEASE_SECONDS || undefined,
    ENDPOINT_RATE_WINDOW_SECONDS: env.ENDPOINT_RATE_WINDOW_SECONDS || undefined,
  });
  if (!parsed.success) {
    throw new Error(
      `ENDPOINT_LEASE_SECONDS and ENDPOINT_RATE_WINDOW_SECONDS must be numbers of seconds between 0 and 3600: ${z.prettifyError(parsed.error)}`,
    );
  }
  return {
    leaseMs: parsed.data.ENDPOINT_LEASE_SECONDS * 1000,
    rateWindowMs: parsed.data.ENDPOINT_RATE_WINDOW_SECONDS * 1000,
  };
}

/** The limits of one endpoint, as the engine's EndpointConfig carries them. */
export interface EndpointLimits {
  id: string;
  maxConcurrency: number;
  requestsPerMinute: number | null;
}

interface Lease {
  endpointId: string;
  slot: number;
  holder: string;
  /** When this process took it from the table (Date.now()). */
  takenAt: number;
  /**
   * When its turn ends: a turn from `takenAt` (or from its last turn's end), give or take half, so slots taken together
   * do not all end their turns together.
   */
  turnEndsAt: number;
  /** Renewal found it gone: it expired and may be someone else's now, so it is never reused. */
  lost: boolean;
}

/** A slot kept for the process's next call, and the timer that gives it back. */
interface Parked {
  lease: Lease;
  timer?: NodeJS.Timeout;
}

/** Polling the table while slots are taken: from 10 ms, doubling, up to this, with jitter. */
const MAX_POLL_MS = 250;
/**
 * A slot passes from call to call inside a process for a turn of about this long; when the turn ends
 * and another process is waiting for the endpoint, the slot goes back to the table so the other gets
 * its turn (with nobody else waiting, the slot starts another turn here). Shorter turns share more
 * evenly between busy workers; each slot given back costs the giver a random poll interval.
 */
const LOCAL_REUSE_MS = 5_000;
/** Whether other processes wait for an endpoint is asked at most this often (per process and endpoint). */
const OTHERS_RECHECK_MS = 250;
/**
 * A slot a finished call leaves is kept this long for the process's next call before going back to the
 * table while another process waits for the endpoint; PARK_ALONE_MS while nobody else does (a busy
 * worker short of CPU often takes longer than PARK_MS to make its next call, and gave back and took
 * again a slot a few times per second).
 */
const PARK_MS = 50;
const PARK_ALONE_MS = 1000;
/** A `retry-after` longer than this pauses the other workers only this long (each retrying worker still waits the full time). */
export const MAX_SHARED_PAUSE_MS = 10 * 60_000;
/**
 * Without a requests-per-minute limit a call start only needs the pause, and a process asks for it at
 * most this often: another worker's 429 reaches this one within this time, and a busy worker does not
 * add a query to every call.
 */
const PAUSE_RECHECK_MS = 200;
/**
 * Without a rate limit, calls start while a look at the pause is under way if the endpoint was found
 * unpaused at most this long ago, instead of all waiting for the look. The look queues behind the
 * engine's own queries, and at 256 calls in flight took up to half a second; every call start waited.
 * Once the last look is older than this, calls wait for the next, as they do while none has answered.
 */
const PAUSE_STALE_MS = 1000;
/** While the database cannot be reached, waiting calls keep trying this long before their call fails (and is retried). */
const DATABASE_PATIENCE_MS = 120_000;

interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}
const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/**
 * Everything one worker process shares among its endpoints' limiters: its name in the slot table and
 * the renewal of every concurrency slot it holds, so a live worker keeps its slots however long a call
 * takes and a dead one loses them within `leaseMs`.
 */
export class SharedLimits {
  readonly processName = `${os.hostname()}:${process.pid}`;
  /**
   * This process's "waiting" row, the same for every endpoint (endpoint-slots.ts). Named apart from
   * any other SharedLimits, in this process too (tests stand in for several workers in one process).
   */
  readonly waiter: Waiter = { slot: randomInt(0, 2 ** 31 - 1), process: `${this.processName}:${randomUUID()}` };
  private readonly held = new Map<string, Lease>();
  private readonly limiters = new Map<string, SharedEndpointLimiter>();
  private readonly timer: NodeJS.Timeout;
  private renewing = false;

  constructor(
    readonly prisma: PrismaClient,
    readonly settings: SharedLimitSettings = sharedLimitSettings(),
    readonly log: (line: string) => void = () => {},
    readonly clock: Clock = realClock,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(50, settings.leaseMs / 3));
    this.timer.unref();
  }

  /** One limiter per endpoint and limits; an edited endpoint gets a new one. */
  limiterFor(endpoint: EndpointLimits): SharedEndpointLimiter {
    const key = JSON.stringify([endpoint.id, endpoint.maxConcurrency, endpoint.requestsPerMinute]);
    let limiter = this.limiters.get(key);
    if (!limiter) this.limiters.set(key, (limiter = new SharedEndpointLimiter(this, endpoint)));
    return limiter;
  }

  /** A fresh holder prefix per batch of slots (each slot's holder is `prefix:slot`): releasing a slot can never free one that went to someone else. */
  newHolder(): string {
    return `${this.processName}:${randomUUID()}`;
  }

  /** How long a slot's turn lasts, drawn per turn: 0.5–1.5 times the turn length. */
  turnLength(): number {
    return (this.settings.turnMs ?? LOCAL_REUSE_MS) * (0.5 + this.clock.random());
  }

  track(lease: Lease) {
    this.held.set(lease.holder, lease);
  }

  untrack(lease: Lease) {
    this.held.delete(lease.holder);
  }

  /** Extends every slot this process holds; logs the ones it lost (it was too slow to renew them). */
  async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    try {
      const gone = await renewSlots(this.prisma, [...this.held.keys()], this.settings.leaseMs);
      for (const holder of gone) {
        const lease = this.held.get(holder);
        if (!lease) continue; // released while renewing
        lease.lost = true;
        this.held.delete(holder);
        this.log(
          `endpoint ${lease.endpointId}: concurrency slot ${lease.slot} expired before it was renewed (was this process stalled for over ${this.settings.leaseMs} ms?)`,
        );
      }
    } catch (error) {
      this.log(`could not renew endpoint slots: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.renewing = false;
    }
  }

  /** Stops renewing. Slots still held expire within `leaseMs`. */
  stop() {
    clearInterval(this.timer);
  }
}

/**
 * Bounds calls to one endpoint across every worker: at most `maxConcurrency` in flight and at most
 * `requestsPerMinute` started per window, with all workers waiting out a `retry-after` that any of
 * them was given. The database (endpoint-slots.ts) is the authority; an in-process EndpointLimiter in
 * front keeps a process from asking it for more than it could get, and one queue per limit makes a
 * process's waiting calls poll the table with one statement at a time, with growing, jittered delays
 * (a rate slot or a pause says when to try again, so those waits are exact). Concurrency slots are
 * taken in batches: one statement takes as many free slots as calls wait (a run's start takes its 64
 * in one or two, instead of 64 takers colliding). A finished call's concurrency slot passes straight to
 * the process's next call for a turn of about LOCAL_REUSE_MS (0.5–1.5 times it, drawn per turn); at the
 * turn's end it goes back to the table only if another process is waiting for the endpoint, else it
 * starts another turn here, so a lone busy worker keeps its slots with no table round trip per turn.
 * Turns of equal length would end together for slots taken together, and the process would give them
 * all back at once.
 */
export class SharedEndpointLimiter implements SlotSource {
  private readonly local: EndpointLimiter;
  private readonly slots: PollingQueue<Lease>;
  private readonly starts: PollingQueue<true>;
  private readonly parked: Parked[] = [];
  /**
   * Without a rate limit: when a look last found the endpoint unpaused (-Infinity: never, or paused since). It is
   * taken to stay so for PAUSE_RECHECK_MS, and calls start while a newer look runs for PAUSE_STALE_MS.
   */
  private unpausedSeenAt = -Infinity;
  /** Without a rate limit: the look at the pause in flight, which calls starting meanwhile share. */
  private pauseCheck: ReturnType<typeof admitCallStart> | null = null;
  /** Counts this process's own pauses (a 429 here): a look that started before one does not undo it. */
  private pausesHere = 0;
  /** Whether another process waited for this endpoint's slots when last asked (null: not asked yet). */
  private others: { waiting: boolean; checkedAt: number } | null = null;
  private checkingOthers = false;

  constructor(
    private readonly shared: SharedLimits,
    private readonly endpoint: EndpointLimits,
  ) {
    const { prisma, settings, clock } = shared;
    this.local = new EndpointLimiter(
      {
        maxConcurrency: endpoint.maxConcurrency,
        requestsPerMinute: endpoint.requestsPerMinute,
        windowMs: settings.rateWindowMs,
      },
      clock,
    );
    this.slots = new PollingQueue<Lease>({
      clock,
      log: shared.log,
      tryAtOnce: false,
      attempt: async (wanted) => {
        const taken = await takeSlots(prisma, {
          endpointId: endpoint.id,
          limit: endpoint.maxConcurrency,
          wanted,
          holderPrefix: shared.newHolder(),
          holdMs: settings.leaseMs,
          waiter: shared.waiter,
        });
        const takenAt = clock.now();
        const leases = taken.map(({ slot, holder }): Lease => ({
          endpointId: endpoint.id,
          slot,
          holder,
          takenAt,
          turnEndsAt: takenAt + shared.turnLength(),
          lost: false,
        }));
        for (const lease of leases) shared.track(lease);
        // A concurrency slot is renewed while held, so when one frees up is unknown: poll.
        return { values: leases, retryInMs: null };
      },
      // A slot that arrives after its waiter was served by a finished call is kept for the next one.
      unclaimed: (lease) => this.releaseSlot(lease),
    });
    this.starts = new PollingQueue<true>({
      clock,
      log: shared.log,
      tryAtOnce: true,
      attempt: async () => {
        const admit = () =>
          admitCallStart(prisma, {
            endpointId: endpoint.id,
            requestsPerWindow: endpoint.requestsPerMinute,
            windowMs: settings.rateWindowMs,
            holder: shared.processName,
          });
        const admitted = endpoint.requestsPerMinute ? await admit() : await this.pauseLook(admit);
        return admitted.admitted ? { values: [true], retryInMs: null } : { values: [], retryInMs: admitted.retryInMs };
      },
      unclaimed: () => {},
    });
  }

  async run<T>(task: () => Promise<T>, headStart?: () => void): Promise<T> {
    return this.local.run(async () => {
      const lease = await this.acquireSlot();
      try {
        await this.starts.take();
        return await task();
      } catch (error) {
        await this.noteFailure(error);
        throw error;
      } finally {
        this.releaseSlot(lease);
      }
    }, headStart);
  }

  private acquireSlot(): Promise<Lease> {
    for (let parked = this.parked.pop(); parked; parked = this.parked.pop()) {
      clearTimeout(parked.timer);
      if (!parked.lease.lost) return Promise.resolve(parked.lease);
    }
    return this.slots.take();
  }

  private releaseSlot(lease: Lease) {
    if (lease.lost) return;
    const now = this.shared.clock.now();
    if (now >= lease.turnEndsAt) {
      const others = this.othersWaiting();
      if (others) {
        // Its turn is over and someone else waits: back to the table, and this process waits a random
        // poll interval like everyone else.
        this.slots.holdOff(this.shared.clock.random() * MAX_POLL_MS);
        return this.giveBack(lease);
      }
      // Nobody else wants it: another turn here. Not known yet: kept until the answer is in.
      if (others === false) lease.turnEndsAt = now + this.shared.turnLength();
    }
    if (this.slots.give(lease)) return;
    // Parked for the next call: back to the table after PARK_MS unless nobody else waits, then after
    // PARK_ALONE_MS or as soon as someone else is found waiting (looked at every OTHERS_RECHECK_MS).
    const parkedAt = now;
    const entry: Parked = { lease };
    const wait = (ms: number) => {
      entry.timer = setTimeout(check, ms);
      entry.timer.unref();
    };
    const check = () => {
      const alone = this.othersWaiting() === false;
      if (alone && this.shared.clock.now() - parkedAt < PARK_ALONE_MS) return wait(OTHERS_RECHECK_MS);
      const index = this.parked.indexOf(entry);
      if (index >= 0) this.parked.splice(index, 1);
      this.giveBack(lease);
    };
    wait(PARK_MS);
    this.parked.push(entry);
  }

  /**
   * Whether another process waits for this endpoint's slots, as last asked; asks again (in the
   * background, one question at a time) when the answer is older than OTHERS_RECHECK_MS.
   */
  private othersWaiting(): boolean | null {
    const { clock, prisma, waiter, log } = this.shared;
    if (!this.checkingOthers && (this.others === null || clock.now() - this.others.checkedAt >= OTHERS_RECHECK_MS)) {
      this.checkingOthers = true;
      othersWaiting(prisma, this.endpoint.id, waiter.process)
        .then((waiting) => (this.others = { waiting, checkedAt: clock.now() }))
        .catch((error: unknown) =>
          log(
            `endpoint limits: could not tell whether other workers wait for endpoint ${this.endpoint.id}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => (this.checkingOthers = false));
    }
    return this.others?.waiting ?? null;
  }

  private giveBack(lease: Lease) {
    this.shared.untrack(lease);
    releaseSlot(this.shared.prisma, {
      endpointId: lease.endpointId,
      kind: "concurrency",
      slot: lease.slot,
      holder: lease.holder,
    }).catch((error: unknown) =>
      // Not fatal: the slot expires by itself within the lease time.
      this.shared.log(
        `could not release concurrency slot ${lease.slot} of endpoint ${lease.endpointId}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }

  /**
   * Without a rate limit, whether a call may start: only the endpoint's pause decides. Looked at once per
   * PAUSE_RECHECK_MS; calls that start together once the last look is stale share one look (a busy worker
   * sent one per call then, dozens at a time), and while it runs they start without it if the endpoint was
   * found unpaused within PAUSE_STALE_MS.
   */
  private pauseLook(admit: () => ReturnType<typeof admitCallStart>): ReturnType<typeof admitCallStart> {
    const { clock } = this.shared;
    const now = clock.now();
    if (now < this.unpausedSeenAt + PAUSE_RECHECK_MS) return Promise.resolve({ admitted: true });
    if (!this.pauseCheck) {
      const pausesBefore = this.pausesHere;
      this.pauseCheck = admit()
        .then((admitted) => {
          // A 429 here while the look ran: the look may predate the pause it wrote, and must not lift it.
          if (this.pausesHere !== pausesBefore) return admitted;
          this.unpausedSeenAt = admitted.admitted ? clock.now() : -Infinity;
          return admitted;
        })
        .finally(() => (this.pauseCheck = null));
    }
    if (now < this.unpausedSeenAt + PAUSE_STALE_MS) {
      // The look's failure is not this call's: a call that waits for a later look sees it.
      this.pauseCheck.catch(() => {});
      return Promise.resolve({ admitted: true });
    }
    return this.pauseCheck;
  }

  /** How long the endpoint stays paused (0: not), as a call start would find it: looked at again once the last look is stale. */
  async pauseRemainingMs(): Promise<number> {
    const { prisma, settings } = this.shared;
    if (this.endpoint.requestsPerMinute)
      throw new Error("An endpoint with a rate limit is paused where its calls take their rate slots.");
    const admitted = await this.pauseLook(() =>
      admitCallStart(prisma, {
        endpointId: this.endpoint.id,
        requestsPerWindow: null,
        windowMs: settings.rateWindowMs,
        holder: this.shared.processName,
      }),
    );
    return admitted.admitted ? 0 : (admitted.retryInMs ?? 0);
  }

  turnLength(): number {
    return this.shared.turnLength();
  }

  /** A 429 or 503 with `retry-after` means the endpoint wants a break from everyone, not just from this call. */
  async noteFailure(error: unknown) {
    if (!(error instanceof LlmError) || error.retryAfterMs === null || error.retryAfterMs <= 0) return;
    if (error.kind !== "rate_limited" && error.status !== 503) return;
    this.pausesHere += 1;
    this.unpausedSeenAt = -Infinity;
    try {
      await pauseEndpoint(this.shared.prisma, this.endpoint.id, Math.min(error.retryAfterMs, MAX_SHARED_PAUSE_MS));
    } catch (pauseError) {
      this.shared.log(
        `could not pause endpoint ${this.endpoint.id}: ${pauseError instanceof Error ? pauseError.message : String(pauseError)}`,
      );
    }
  }
}

/** What one try got (maybe several, maybe none) and, when it got none, when to try again (null: unknown). */
type Attempt<T> = { values: T[]; retryInMs: number | null };

/**
 * Callers waiting for something from the table, served in order by a single loop per process, so a
 * process polls with one query at a time however many calls wait; each try asks for as many as wait.
 * With `tryAtOnce`, a caller that finds nobody waiting tries once straight away on its own. Between
 * tries that got nothing it sleeps what the table said (plus jitter, so processes don't wake together)
 * or a doubling delay.
 */
class PollingQueue<T> {
  private readonly waiters: { resolve(value: T): void; reject(error: unknown): void }[] = [];
  private pumping = false;
  private notBefore = 0;

  constructor(
    private readonly options: {
      clock: Clock;
      log(line: string): void;
      /** One try for up to `wanted` values. */
      attempt(wanted: number): Promise<Attempt<T>>;
      unclaimed(value: T): void;
      tryAtOnce: boolean;
    },
  ) {}

  async take(): Promise<T> {
    // Nobody waiting: one try straight away, so calls that find room don't queue behind each other.
    if (this.options.tryAtOnce && this.waiters.length === 0 && this.options.clock.now() >= this.notBefore) {
      try {
        const [first, ...extra] = (await this.options.attempt(1)).values;
        for (const value of extra) this.options.unclaimed(value);
        if (first !== undefined) return first;
      } catch (error) {
        this.options.log(
          `endpoint limits: database query failed, retrying: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      void this.pump();
    });
  }

  /** Hands a value to the first waiter without asking the table; false when nobody waits. */
  give(value: T): boolean {
    const waiter = this.waiters.shift();
    waiter?.resolve(value);
    return waiter !== undefined;
  }

  /** The next try waits at least this long. */
  holdOff(ms: number) {
    this.notBefore = Math.max(this.notBefore, this.options.clock.now() + ms);
  }

  private async pump() {
    if (this.pumping) return;
    this.pumping = true;
    const { clock } = this.options;
    let backoffMs = 10;
    let failingSince: number | null = null;
    try {
      while (this.waiters.length > 0) {
        const heldOff = this.notBefore - clock.now();
        if (heldOff > 0) await clock.sleep(heldOff);
        if (this.waiters.length === 0) break;
        let outcome: Attempt<T>;
        try {
          outcome = await this.options.attempt(this.waiters.length);
          failingSince = null;
        } catch (error) {
          failingSince ??= clock.now();
          this.options.log(
            `endpoint limits: database query failed, retrying: ${error instanceof Error ? error.message : String(error)}`,
          );
          if (clock.now() - failingSince >= DATABASE_PATIENCE_MS) {
            failingSince = null;
            this.waiters.shift()?.reject(
              Object.assign(new LlmError("network", "Could not reach the database to check the endpoint's limits."), {
                cause: error,
              }),
            );
            continue;
          }
          outcome = { values: [], retryInMs: null };
        }
        if (outcome.values.length > 0) {
          for (const value of outcome.values) {
            const waiter = this.waiters.shift();
            if (waiter) waiter.resolve(value);
            else this.options.unclaimed(value);
          }
          backoffMs = 10;
          continue;
        }
        const waitMs =
          outcome.retryInMs !== null ? outcome.retryInMs + clock.random() * 50 : backoffMs * (0.5 + clock.random() / 2);
        if (outcome.retryInMs === null) backoffMs = Math.min(backoffMs * 2, MAX_POLL_MS);
        await clock.sleep(Math.max(1, waitMs));
      }
    } finally {
      this.pumping = false;
    }
    // A waiter that arrived just as the loop ended.
    if (this.waiters.length > 0) void this.pump();
  }
}
