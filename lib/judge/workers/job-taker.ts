import type { Db, Job, PgBoss } from "pg-boss";
import { queueOn, type QueueDefinition } from "../../jobs/job-boss";
import { TickBatcher } from "./tick-batcher";

type ListenHandle = Awaited<ReturnType<NonNullable<Db["listen"]>>>;

/** The channel on which `wakeTakers` says a queue has new jobs (its name is the payload). */
const WAKE_CHANNEL = "framejury_jobs_added";

/**
 * Tells every JobTaker of `queue`, in any process on this database, that it has new jobs, so they take them now
 * instead of at their next look. Only a hint: takers that miss it (not listening, or reconnecting) still look.
 */
export async function wakeTakers(boss: PgBoss, queue: string): Promise<void> {
  await boss.getDb().executeSql("SELECT pg_notify($1, $2)", [WAKE_CHANNEL, queue]);
}

/**
 * The options of a queue of one job per run and subject (a video, a pair) that JobTakers work: a heartbeat every
 * 10 s (a job whose heartbeat lapses goes back to the queue), retried after a failure with a growing delay.
 */
export const TAKEN_JOB_OPTIONS: QueueDefinition["options"] = {
  heartbeatSeconds: 10,
  retryLimit: 20,
  retryDelay: 1,
  retryBackoff: true,
  retryDelayMax: 30,
  expireInSeconds: 4 * 3600,
};

/**
 * Saves jobs on a taker's queue, 500 to a statement, each at most once while it waits (`singletonKey`), then wakes
 * the takers. The jobs are saved whether or not the takers hear of them now: a failed wake only means they are taken
 * at a taker's next look, within a second.
 */
export async function enqueueTakenJobs<T extends object>(
  boss: PgBoss,
  queue: QueueDefinition,
  jobs: readonly T[],
  singletonKey: (job: T) => string,
): Promise<void> {
  await queueOn(boss, queue);
  for (let i = 0; i < jobs.length; i += 500) {
    await boss.insert(
      queue.name,
      jobs.slice(i, i + 500).map((job) => ({ data: job, singletonKey: singletonKey(job) })),
    );
  }
  await wakeTakers(boss, queue.name).catch(() => {});
}

/** The attempt of a job a process holds: pg-boss settles and touches a job only in the attempt given. */
type JobAttempt = Pick<Job, "id" | "retryCount">;
const attemptOf = (job: JobAttempt): JobAttempt => ({ id: job.id, retryCount: job.retryCount });

/** Why a job whose handler ended unfinished went back to the queue. */
const UNFINISHED_MESSAGE = "This attempt started no new work (its worker stopped, or the job went to another attempt).";

/** The longest pause between looks while they keep failing (the database is down or refused). */
const FAILING_POLL_MAX_MS = 5000;

/** A job as the taker hands it to its handler. */
export interface TakenJob<T> {
  id: string;
  data: T;
  /**
   * The handler says the job has started all the work it will start, and only waits for that to end: its slot
   * goes to the next job now (see JobTaker). Once is enough; later calls change nothing.
   */
  windDown(): void;
  /**
   * Aborted when this attempt is to start no new work: it is no longer the job's (its heartbeat lapsed, a starved
   * worker or a database that was away, and pg-boss handed the job out again), or its worker is stopping (`stop`).
   * The handler starts no new work on it and ends, "unfinished", once what it sent has answered: nothing sent is lost
   * or sent again, and the job's next attempt takes over from the steps this one finished.
   */
  superseded: AbortSignal;
  /**
   * The handler says the job is set up: its work now waits on others (the judge: a video whose first step has asked
   * for its answer), so the next job may start setting up (see JobTaker). Once is enough; ending or winding down
   * counts as ready too.
   */
  ready(): void;
}

export interface JobTakerOptions<T> {
  queue: string;
  /** The most jobs handled at once. */
  capacity: number;
  /**
   * Handles the job; resolves "unfinished" when it ended without finishing it (told to by `superseded`): the taker
   * then hands the job back instead of completing it.
   */
  handle(job: TakenJob<T>): Promise<void | "unfinished">;
  /** The most jobs setting up at once (taken, not yet ready): max(8, capacity / 4) unless given. */
  setupLimit?: number;
  /**
   * While the queue is empty, how often it is looked at again (ms): 100 unless given, or `wokenPollMs` once the
   * taker listens for `wakeTakers`.
   */
  idlePollMs?: number;
  /** The same while the taker listens for `wakeTakers`, which start a new run's jobs at once: 1,000 unless given. */
  wokenPollMs?: number;
  /** How often the heartbeats of the jobs being handled are renewed, in one statement (ms). */
  heartbeatMs?: number;
  log(error: unknown, what: string): void;
}

/**
 * Takes jobs from one pg-boss queue as this process has room for them, instead of one pg-boss polling
 * loop per job slot. With a loop per slot, a worker judging 512 videos at once asked the queue for a
 * job 1,024 times a second while it was empty (each loop every 0.5 s), and each ask cost PostgreSQL a
 * plan: about a fifth of its CPU at 256 calls in flight. Here one fetch asks for every free slot; it is
 * repeated at once while the queue hands out all it was asked for, and every `idlePollMs` (`wokenPollMs` while it
 * listens) once it runs dry; or at once when `wakeTakers` says jobs were added (LISTEN on a connection pg-boss keeps
 * up for the taker; after it reconnects the taker looks once, as it may have missed a wake meanwhile). Polling every
 * 100 ms, a run's first jobs waited 60–75 ms to be taken; woken, the taker looks only once a second while idle.
 * The heartbeats of all jobs being handled are renewed together (pg-boss renews each job's on its
 * own). A job whose handler throws is failed, so pg-boss retries it by the queue's policy; `stop` hands
 * back the jobs still running after its grace time the same way, and any that a fetch returns after it began.
 *
 * A job whose handler calls `windDown` (the judge: a video whose every step has started) lends its slot to the next
 * job while it finishes, so taking and starting that job overlaps the last calls' answers; at most `capacity` jobs
 * wind down at once, so never more than twice the capacity run. Without it, a worker judging 512 videos at once
 * took new ones only as whole videos ended, and at 256 calls in flight its calls ran out for about half a second
 * when the first 512, started together, ended together (`npm run bench:judge -- --concurrency 256`).
 *
 * At most `setupLimit` jobs set up at once: a job counts from its taking until its handler says it is `ready`. A
 * worker that took 512 videos at once set them all up together (reading, planning, looking up and recording the
 * first calls of each), so its first 256 calls waited for the last video's setup: 0.3 s with 36 calls in flight.
 * Set up a quarter at a time, the first calls go out while the rest are set up.
 */
interface RunningJob {
  attempt: JobAttempt;
  done: Promise<void>;
  superseded: AbortController;
}

export class JobTaker<T extends object> {
  /**
   * The jobs being handled, by id: the attempt this process holds (complete, fail and touch are fenced to it), its
   * end, and the signal that tells its handler it was superseded.
   */
  private readonly running = new Map<string, RunningJob>();
  /** Ids of running jobs whose handler called windDown: their slots are lent to the next jobs. */
  private readonly windingDown = new Set<string>();
  /** Ids of running jobs not yet ready (still setting up). */
  private readonly settingUp = new Set<string>();
  private readonly setupLimit: number;
  /**
   * Completes the jobs that end in the same turn of the event loop in one statement: at 256 calls in flight a worker
   * ends some 50 videos a second, and their completions were a statement each.
   */
  private readonly completions: TickBatcher<JobAttempt, void>;
  private readonly idlePollMs: number;
  private readonly wokenPollMs: number;
  /** The LISTEN for `wakeTakers`: null until it is set up (and for good if it could not be). */
  private listener: Promise<ListenHandle | null> | null = null;
  /** The listening connection's close, begun when the taker halts. */
  private listenerClosed: Promise<void> | null = null;
  private listening = false;
  private stopped = false;
  private fetching = false;
  private fetchAgain = false;
  /** A wake came while a fetch was under way: that fetch may have looked before the new jobs were there. */
  private wokenWhileFetching = false;
  /**
   * Looks that failed in a row: each doubles the pause before the next, up to FAILING_POLL_MAX_MS, so a worker whose
   * database is down (or refused, lib/db/cluster-identity.ts) does not knock ten times a second until it is back.
   */
  private failedFetches = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;

  /** How many jobs this taker holds now (judging, or setting up). */
  get jobsInHand(): number {
    return this.running.size;
  }

  constructor(
    private readonly boss: PgBoss,
    private readonly options: JobTakerOptions<T>,
  ) {
    this.idlePollMs = options.idlePollMs ?? 100;
    this.wokenPollMs = options.wokenPollMs ?? 1000;
    this.setupLimit = options.setupLimit ?? Math.max(8, Math.ceil(options.capacity / 4));
    // All the jobs it can hold (twice the capacity, with those winding down) in one statement.
    this.completions = new TickBatcher(
      async (attempts) => {
        await boss.complete(options.queue, attempts);
        return attempts.map(() => undefined);
      },
      2 * options.capacity,
      (error, jobs) =>
        options.log(error, `could not complete ${jobs} jobs in one statement; completing them one by one`),
    );
    this.heartbeat = setInterval(() => void this.renewHeartbeats(), options.heartbeatMs ?? 4000);
    this.heartbeat.unref();
    // A boss stopped without stopping its taker first: stop asking it (each ask would fail and be logged every
    // `idlePollMs`). The jobs still running can no longer be handed back; their heartbeats lapse and pg-boss
    // gives them to another worker.
    boss.once("stopped", this.orphaned);
  }

  start(): this {
    this.listen();
    this.fetchSoon();
    return this;
  }

  /**
   * Listens for `wakeTakers` on a connection of its own, which pg-boss opens and keeps up (`Db.listen`: checked every
   * 10 s, reconnected when lost). A database without `listen` (a custom adapter): the taker only polls.
   */
  private listen() {
    const db = this.boss.getDb();
    if (!db.listen) return;
    this.listener = db
      .listen(
        WAKE_CHANNEL,
        (queue) => {
          if (queue === this.options.queue) this.wake();
        },
        // Set up (again, after a lost connection): wakes sent before were missed.
        () => this.wake(),
      )
      .then(
        async (handle) => {
          if (this.stopped) {
            await handle.close();
            return null;
          }
          this.listening = true;
          return handle;
        },
        (error: unknown) => {
          this.options.log(
            error,
            `could not listen for new jobs; looking for them every ${this.idlePollMs} ms instead`,
          );
          return null;
        },
      );
  }

  /** Jobs being handled now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Takes no more jobs and tells those running to start no new work (`superseded`); waits up to `graceMs` for them to
   * end, then fails the rest so another worker retries them. A job that ends unfinished is handed back as it ends: its
   * calls in flight answered within the grace, so the worker that takes it sends none of them again.
   */
  async stop(graceMs: number): Promise<void> {
    this.halt();
    for (const job of this.running.values()) job.superseded.abort();
    const settled = Promise.allSettled([...this.running.values()].map((job) => job.done));
    // The heartbeats go on while it waits: a job whose heartbeat lapsed meanwhile would go to another worker, which
    // would send again the calls this one still waits for.
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    clearInterval(this.heartbeat);
    await this.handBack([...this.running.values()].map((job) => job.attempt));
    await this.listenerClosed;
  }

  /** The boss stopped under the taker: it takes no more jobs, and renews no more heartbeats. */
  private readonly orphaned = () => {
    this.halt();
    clearInterval(this.heartbeat);
  };

  /** Takes no more jobs. */
  private halt() {
    this.stopped = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.boss.off("stopped", this.orphaned);
    // Awaited by stop, so that a stopped taker holds no connection: one that closed later could be cut by the database
    // meanwhile, and pg-boss's listener takes its handlers off before it ends the connection.
    this.listenerClosed ??= this.listener?.then((handle) => handle?.close()) ?? null;
  }

  /** Fails jobs this stopping process will not finish, so that pg-boss gives them to another worker now. */
  private async handBack(attempts: JobAttempt[]) {
    if (attempts.length === 0) return;
    await this.boss
      .fail(this.options.queue, attempts, {
        message: "The worker stopped before the job finished; another worker takes it.",
      })
      .catch((error: unknown) => this.options.log(error, "could not hand back the jobs of a stopping worker"));
  }

  /** Jobs were added: look now, and once more after a fetch under way, even if it comes back short. */
  private wake() {
    if (this.fetching) this.wokenWhileFetching = true;
    this.fetchSoon();
  }

  /** On the next turn of the event loop, so slots that free up together share one fetch. */
  private fetchSoon() {
    if (this.stopped) return;
    if (this.fetching) {
      this.fetchAgain = true;
      return;
    }
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    this.fetching = true;
    setImmediate(() => void this.fetch());
  }

  /**
   * Jobs to take now: the slots not held by a job still starting work, never more than twice the capacity running,
   * and never more than the setup limit setting up.
   */
  private room(): number {
    return Math.min(
      this.options.capacity - (this.running.size - this.windingDown.size),
      2 * this.options.capacity - this.running.size,
      this.setupLimit - this.settingUp.size,
    );
  }

  private async fetch() {
    let dry = false;
    try {
      const room = this.room();
      if (room > 0 && !this.stopped) {
        const jobs = await this.boss.fetch<T>(this.options.queue, { batchSize: room });
        if (this.stopped) await this.handBack(jobs.map(attemptOf));
        else for (const job of jobs) this.handle(job);
        dry = jobs.length < room;
      }
      this.failedFetches = 0;
    } catch (error) {
      this.failedFetches++;
      this.options.log(error, `could not take jobs from the queue; trying again in ${this.pollMs()} ms`);
      dry = true;
    } finally {
      this.fetching = false;
    }
    if (this.stopped) return;
    const again = this.fetchAgain;
    const woken = this.wokenWhileFetching;
    this.fetchAgain = false;
    this.wokenWhileFetching = false;
    // Slots freed while fetching and the queue had more, or jobs were added meanwhile: ask again now. Otherwise
    // look again later.
    if ((again && !dry) || woken) this.fetchSoon();
    else if (this.room() > 0) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        this.fetchSoon();
      }, this.pollMs());
    }
  }

  /** The pause before the next look at a queue that ran dry, longer after each failed look. */
  private pollMs(): number {
    const base = this.listening ? this.wokenPollMs : this.idlePollMs;
    if (this.failedFetches === 0) return base;
    return Math.max(base, Math.min(base * 2 ** this.failedFetches, FAILING_POLL_MAX_MS));
  }

  /**
   * Starts the job's handler; or, when an earlier attempt of the same job still runs here (its heartbeat lapsed while
   * it worked, so pg-boss handed the job out again), supersedes that attempt and starts this one's handler only once
   * it has ended: one job's attempts never overlap in a process, so no step is sent twice side by side.
   */
  private handle(job: { id: string; data: T; retryCount: number }) {
    const earlier = this.running.get(job.id);
    earlier?.superseded.abort();
    const entry: RunningJob = { attempt: attemptOf(job), done: Promise.resolve(), superseded: new AbortController() };
    // Before the handler runs: it may say it is ready at once.
    this.settingUp.add(job.id);
    const handled = (earlier ? earlier.done : Promise.resolve()).then(() =>
      this.options.handle({
        id: job.id,
        data: job.data,
        windDown: () => this.windDown(job.id),
        ready: () => this.ready(job.id),
        superseded: entry.superseded.signal,
      }),
    );
    entry.done = handled
      .finally(() => this.ready(job.id))
      .then(
        async (outcome) => {
          if (outcome === "unfinished")
            await this.boss.fail(this.options.queue, entry.attempt, { message: UNFINISHED_MESSAGE });
          else await this.completions.ask(entry.attempt);
        },
        (error: unknown) =>
          this.boss.fail(this.options.queue, entry.attempt, {
            message: error instanceof Error ? error.message : String(error),
          }),
      )
      .then(
        () => {},
        // Not settled here: the job stays active until its heartbeat lapses, and pg-boss then retries it.
        (error: unknown) => this.options.log(error, `could not settle job ${job.id}`),
      )
      .finally(() => {
        // A later attempt of the job may hold the entry by now: it is its to clear.
        if (this.running.get(job.id) !== entry) return;
        this.running.delete(job.id);
        this.windingDown.delete(job.id);
        this.fetchSoon();
      });
    this.running.set(job.id, entry);
  }

  private ready(id: string) {
    if (this.settingUp.delete(id)) this.fetchSoon();
  }

  private windDown(id: string) {
    if (this.windingDown.has(id)) return;
    this.windingDown.add(id);
    this.settingUp.delete(id);
    this.fetchSoon();
  }

  /**
   * Renews every running attempt's heartbeat in one statement. An attempt the renewal did not reach has been handed
   * out again (its heartbeat lapsed first): its handler is told it was superseded.
   */
  private async renewHeartbeats() {
    const entries = [...this.running.values()];
    if (entries.length === 0) return;
    try {
      // pg-boss answers the ids it renewed beside the count (its settle statements' tail), untyped.
      const renewed: { settled?: string[] } = await this.boss.touch(
        this.options.queue,
        entries.map((job) => job.attempt),
      );
      if (!renewed.settled) return;
      const reached = new Set(renewed.settled);
      for (const job of entries) if (!reached.has(job.attempt.id)) job.superseded.abort();
    } catch (error) {
      this.options.log(error, "could not renew the heartbeats of running jobs");
    }
  }
}
