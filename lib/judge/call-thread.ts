import { SHARE_ENV, Worker } from "node:worker_threads";
import { EndpointLimiter, headStartCalls, type CallLimiter, type SlotSource } from "./endpoint-limiter";
import { EndpointNotAllowedError, privateEndpointsAllowed } from "./endpoint-url-policy";
import { BufferedResponse, checkedRequest, ownArrayBuffer, type AnswerParts } from "./guarded-fetch";
import { retryAfterMsOf } from "./llm-client";
import { MAX_SHARED_PAUSE_MS } from "./shared-endpoint-limiter";

/**
 * The call thread: a worker process's judge calls go out over HTTP from a thread of their own
 * (call-thread-worker.ts), which starts an endpoint's next request the moment an answer ends.
 *
 * Why: at 256 calls in flight the worker's main thread is busy most of the time (its results, its database writes,
 * a scavenge every 100–200 ms), and it read an answer, freed its slot and sent the next request late whenever it
 * was: about 0.1 of the endpoint's limit went unused (docs/benchmarks.md, sessions 25–26). The thread does nothing
 * else, so a slot passes from an answer to the next request within a millisecond.
 *
 * How the limits hold: an endpoint's calls pass through its gate (CallGate). Each request is queued in the thread
 * and sent on a *carrier*, a slot of the endpoint held by the main thread through the endpoint's limiter (shared with
 * the other workers through PostgreSQL: shared-endpoint-limiter.ts), exactly as a call held one before. The thread
 * sends at most one request per carrier at a time, so no more are in flight than the slots held. A carrier is asked for
 * as soon as a call starts (its slot is taken while the call's "sent" row is written), carries the queued requests
 * one after another, and goes back (its slot released as a finished call's was) once no call of the worker wants it
 * or after its turn, 0.5–1.5 times the limiter's turn, so another worker waiting for the endpoint gets its share. The
 * gate lets the engine start up to headStartCalls(maxConcurrency) calls more than the endpoint's limit,
 * so the thread has the next requests at hand.
 *
 * The endpoint's pause: an answer of 429 or 503 stops the thread's starts for the endpoint until the main thread has
 * read its retry-after (then none start before it ends); another worker's pause is looked at every
 * PAUSE_RELAY_MS while calls wait. An endpoint with a requests-per-minute limit does not use the thread (every start
 * needs a rate slot from the table, and such an endpoint is bound by its rate, not by how fast slots pass).
 */

/** Messages to the thread. */
export type ToCallThread =
  | {
      type: "call";
      id: number;
      gate: string;
      request: { method: string; url: string; headers: Record<string, string>; body: ArrayBuffer | null };
    }
  | { type: "cancel"; id: number }
  | { type: "carrier"; gate: string; carrier: number; retireAt: number }
  | { type: "release"; gate: string; count: number }
  | { type: "pause"; gate: string; until: number };

/** Messages from the thread. */
export type FromCallThread =
  | { type: "answer"; id: number; init: AnswerParts["init"]; body: ArrayBuffer | null }
  | { type: "failed"; id: number; message: string; code: string | null; notAllowed: boolean }
  | { type: "carrierEnded"; gate: string; carrier: number; released: boolean }
  | { type: "releaseShort"; gate: string; by: number };

/** While calls wait, the endpoint's pause (another worker's 429) is looked at this often, as a call start looked at it before. */
const PAUSE_RELAY_MS = 200;
/** A slot's turn without a SlotSource to say. */
const DEFAULT_TURN_MS = 5_000;

interface PendingCall {
  answered(message: FromCallThread & { type: "answer" | "failed" }): void;
}

export class CallThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly gates = new Map<string, CallGate>();

  constructor(private readonly log: (line: string) => void = () => {}) {
    // Started now, so the first calls do not wait for it (it loads its modules in about 100 ms).
    this.thread();
  }

  /** The gate of one endpoint's limits (`key` names them: an edited endpoint gets a new gate). */
  gate(key: string, slots: SlotSource, maxConcurrency: number): CallGate {
    let gate = this.gates.get(key);
    if (!gate) this.gates.set(key, (gate = new CallGate(this, key, slots, maxConcurrency, this.log)));
    return gate;
  }

  /** Ends the thread; calls still waiting fail (a stopping worker's calls are retried by whoever judges their videos next). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /** @internal */
  send(message: ToCallThread, transfer: ArrayBuffer[] = []) {
    this.thread().postMessage(message, transfer);
  }

  /** @internal */
  call(request: ToCallThread & { type: "call" }, body: ArrayBuffer | null, answered: PendingCall["answered"]): number {
    this.pending.set(request.id, { answered });
    this.send(request, body ? [body] : []);
    return request.id;
  }

  /** @internal */
  newCallId(): number {
    return this.nextId++;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // The thread runs TypeScript as the worker does: tsx registered in it first.
    const entry = new URL("./call-thread-worker.ts", import.meta.url).href;
    const worker = new Worker(
      `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
      {
        eval: true,
        execArgv: [],
        // ALLOW_PRIVATE_ENDPOINTS is read when the thread connects, as guardedFetch reads it.
        env: SHARE_ENV,
      },
    );
    worker.unref();
    worker.on("message", (message: FromCallThread) => this.received(message));
    let failure: string | null = null;
    worker.on("error", (error) => {
      failure = error.message;
      this.log(`the call thread failed: ${error.message}`);
    });
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = null;
      this.threadGone(failure ? `The call thread failed: ${failure}` : "The call thread stopped.");
    });
    this.worker = worker;
    return worker;
  }

  private received(message: FromCallThread) {
    if (message.type === "carrierEnded")
      return this.gates.get(message.gate)?.carrierEnded(message.carrier, message.released);
    if (message.type === "releaseShort") return this.gates.get(message.gate)?.releaseShort(message.by);
    const pending = this.pending.get(message.id);
    if (!pending) return; // cancelled
    this.pending.delete(message.id);
    pending.answered(message);
  }

  /** Calls the thread had fail (the engine retries them); carriers it had go back. */
  private threadGone(reason: string) {
    const pending = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, call] of pending)
      call.answered({ type: "failed", id, message: reason, code: "ECONNRESET", notAllowed: false });
    for (const gate of this.gates.values()) gate.threadGone();
  }
}

/** One endpoint's calls through the call thread: the fetch its client sends with, and the limiter the engine runs its calls through. */
export class CallGate {
  /** The engine's limiter for the endpoint: up to headStartCalls(maxConcurrency) calls more than its limit, queued in the thread. */
  readonly limiter: CallLimiter;
  /** Calls sent to the thread and not answered yet. */
  private outstanding = 0;
  /**
   * Calls the limiter let start and not ended (those sent and those about to be: their "sent" row is being written).
   * Slots are asked for as soon as a call starts, so taking one overlaps the write.
   */
  private running = 0;
  /** Carriers by id: the ones asking for a slot and the ones the thread holds; each ends its slot's task when called. */
  private readonly carriers = new Map<number, { end(): void; inThread: boolean }>();
  private nextCarrier = 1;
  /** Carriers the thread holds, and those of them it was asked to give back and has not yet. */
  private inThread = 0;
  private releasing = 0;
  private pauseTimer: NodeJS.Timeout | null = null;
  /** The endpoint's pause as this gate last learnt of it (Date.now()). */
  private pausedUntil = 0;
  private lookingAtPause = false;

  constructor(
    private readonly thread: CallThread,
    private readonly key: string,
    private readonly slots: SlotSource,
    private readonly maxConcurrency: number,
    private readonly log: (line: string) => void,
  ) {
    const admission = new EndpointLimiter({
      maxConcurrency: maxConcurrency + headStartCalls(maxConcurrency),
      requestsPerMinute: null,
    });
    this.limiter = {
      run: (task, headStart) =>
        admission.run(async () => {
          // A call waits out a pause it knows of before it starts (its timeout starts with it); one already queued
          // in the thread when the pause began counts it in its timeout.
          for (let wait = this.pausedUntil - Date.now(); wait > 0; wait = this.pausedUntil - Date.now())
            await new Promise((resolve) => setTimeout(resolve, wait));
          this.running += 1;
          this.demandChanged();
          try {
            return await task();
          } catch (error) {
            await slots.noteFailure?.(error);
            throw error;
          } finally {
            this.running -= 1;
            this.demandChanged();
          }
        }, headStart),
    };
  }

  /** A fetch that takes piecesBody bodies, as guardedFetch does, and sends through the thread. */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = await checkedRequest(input, init, privateEndpointsAllowed());
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const body = request.body ? ownArrayBuffer(request.body) : null;
    const id = this.thread.newCallId();
    return new Promise<Response>((resolve, reject) => {
      // A cancelled call's answer still comes (the thread answers every call); a 429 or 503 in it still says when
      // the thread may start again.
      let cancelled = false;
      const onAbort = () => {
        cancelled = true;
        this.thread.send({ type: "cancel", id });
        this.outstanding -= 1;
        this.demandChanged();
        reject(signal?.reason ?? new DOMException("This operation was aborted", "AbortError"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.thread.call(
        {
          type: "call",
          id,
          gate: this.key,
          request: { method: request.method, url: request.url, headers: request.headers, body },
        },
        body,
        (message) => {
          const limited = message.type === "answer" && (message.init.status === 429 || message.init.status === 503);
          if (limited) this.resumeAfter(new Headers(message.init.headers));
          if (cancelled) return;
          signal?.removeEventListener("abort", onAbort);
          this.outstanding -= 1;
          this.demandChanged();
          if (message.type === "failed") {
            const error = message.notAllowed
              ? new EndpointNotAllowedError(message.message)
              : Object.assign(new Error(message.message), { code: message.code ?? undefined });
            return reject(error);
          }
          resolve(
            message.body === null
              ? new Response(null, message.init)
              : new BufferedResponse(Buffer.from(message.body), message.init),
          );
        },
      );
      this.outstanding += 1;
      this.demandChanged();
    });
  };

  /** @internal The thread gave a carrier back: its slot's task ends, and the slot goes back as a finished call's did. */
  carrierEnded(id: number, released: boolean) {
    if (released) this.releasing -= 1;
    this.carriers.get(id)?.end();
  }

  /** @internal The thread had fewer idle carriers than it was asked to give back (calls took them meanwhile). */
  releaseShort(by: number) {
    this.releasing -= by;
    this.demandChanged();
  }

  /** @internal The thread stopped: the carriers it held go back. */
  threadGone() {
    this.releasing = 0;
    for (const carrier of this.carriers.values()) if (carrier.inThread) carrier.end();
  }

  /** Calls that want a slot: the calls running and any sent from outside the limiter. */
  private demand(): number {
    return Math.max(this.running, this.outstanding);
  }

  private demandChanged() {
    // Carriers no call wants go back (the thread gives back idle ones; one still waiting for its slot, once it has it).
    const kept = this.carriers.size - this.releasing;
    const excess = Math.min(kept - this.demand(), this.inThread - this.releasing);
    if (excess > 0) {
      this.releasing += excess;
      this.thread.send({ type: "release", gate: this.key, count: excess });
    }
    if (this.demand() > 0) {
      this.topUp();
      this.relayPauses();
    } else if (this.pauseTimer) {
      clearInterval(this.pauseTimer);
      this.pauseTimer = null;
    }
  }

  /** A slot for every call that wants one, up to the endpoint's limit: each new carrier asks the limiter for one, as a call did. */
  private topUp() {
    while (this.carriers.size < Math.min(this.demand(), this.maxConcurrency)) this.startCarrier();
  }

  private startCarrier() {
    const id = this.nextCarrier++;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const carrier = { end, inThread: false };
    this.carriers.set(id, carrier);
    this.slots
      .run(async () => {
        // No longer wanted (calls ended while it waited for its slot): the slot goes back at once.
        if (this.carriers.size - this.releasing > this.demand()) return;
        carrier.inThread = true;
        this.inThread += 1;
        const turn = this.slots.turnLength?.() ?? DEFAULT_TURN_MS * (0.5 + Math.random());
        this.thread.send({ type: "carrier", gate: this.key, carrier: id, retireAt: Date.now() + turn });
        await ended;
      })
      .catch((error: unknown) =>
        this.log(
          `endpoint ${this.key}: could not take a slot: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        if (carrier.inThread) this.inThread -= 1;
        this.carriers.delete(id);
        this.topUp();
      });
  }

  /** Tells the thread when this endpoint's requests may start again after a 429 or 503 (at once without a retry-after). */
  private resumeAfter(headers: Headers) {
    const wait = Math.min(retryAfterMsOf(headers) ?? 0, MAX_SHARED_PAUSE_MS);
    this.pause(Date.now() + wait);
  }

  private pause(until: number) {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.thread.send({ type: "pause", gate: this.key, until });
  }

  /** While calls wait, another worker's pause of the endpoint reaches the thread within PAUSE_RELAY_MS. */
  private relayPauses() {
    if (this.pauseTimer || !this.slots.pauseRemainingMs) return;
    this.pauseTimer = setInterval(() => {
      if (this.lookingAtPause) return;
      this.lookingAtPause = true;
      this.slots.pauseRemainingMs!()
        .then((ms) => {
          if (ms > 0) this.pause(Date.now() + ms);
        })
        .catch((error: unknown) =>
          this.log(
            `endpoint ${this.key}: could not look at its pause: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => (this.lookingAtPause = false));
    }, PAUSE_RELAY_MS);
    this.pauseTimer.unref();
  }
}
