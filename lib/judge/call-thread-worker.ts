// The call thread's own code (started by lib/judge/call-thread.ts, which explains why it exists): sends the judge's
// HTTP requests, at most one per slot its gate holds, and starts a gate's next request the moment an answer ends,
// whatever the worker's main thread is busy with.
import { parentPort } from "node:worker_threads";
import type { ClientRequest } from "node:http";
import { answerParts, guardedAgents, ownArrayBuffer, sendRequest, type CheckedRequest } from "./guarded-fetch";
import { EndpointNotAllowedError, guardedLookup, privateEndpointsAllowed } from "./endpoint-url-policy";
import type { ToCallThread, FromCallThread } from "./call-thread";

/** An answer larger than this fails the call: a chat completion is a few kilobytes. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

interface QueuedCall {
  id: number;
  request: CheckedRequest;
}

interface Carrier {
  id: number;
  retireAt: number;
}

interface Gate {
  queue: QueuedCall[];
  idle: Carrier[];
  /** No request starts before this (Date.now()): the endpoint's pause. */
  pausedUntil: number;
  /** An answer said 429 or 503: no request starts until the main thread, having read its retry-after, says when. */
  held: boolean;
  timer: NodeJS.Timeout | null;
}

const port = parentPort!;
const lookup = guardedLookup({ allowPrivate: () => privateEndpointsAllowed() });
const agents = guardedAgents(lookup);
const gates = new Map<string, Gate>();
const inFlight = new Map<number, { request: ClientRequest; fail(error: Error): void }>();

function gateOf(key: string): Gate {
  let gate = gates.get(key);
  if (!gate) gates.set(key, (gate = { queue: [], idle: [], pausedUntil: 0, held: false, timer: null }));
  return gate;
}

const post = (message: FromCallThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function retire(key: string, carrier: Carrier, released = false) {
  post({ type: "carrierEnded", gate: key, carrier: carrier.id, released });
}

/**
 * Starts the gate's queued calls on its idle carriers while it is not paused. An idle carrier stays until the main
 * thread releases it: a call that will want it may still be writing its "sent" row.
 */
function pump(key: string) {
  const gate = gateOf(key);
  const now = Date.now();
  if (!gate.held && now >= gate.pausedUntil) {
    while (gate.queue.length && gate.idle.length) start(key, gate.idle.shift()!, gate.queue.shift()!);
  } else if (!gate.held && gate.queue.length && !gate.timer) {
    gate.timer = setTimeout(() => ((gate.timer = null), pump(key)), gate.pausedUntil - now);
  }
}

function start(key: string, carrier: Carrier, call: QueuedCall) {
  let settled = false;
  const settle = (message: FromCallThread, transfer: ArrayBuffer[] = []) => {
    if (settled) return;
    settled = true;
    inFlight.delete(call.id);
    post(message, transfer);
    const gate = gateOf(key);
    if (message.type === "answer" && (message.init.status === 429 || message.init.status === 503)) gate.held = true;
    if (Date.now() >= carrier.retireAt) retire(key, carrier);
    else gate.idle.push(carrier);
    pump(key);
  };
  const fail = (error: unknown) =>
    settle({
      type: "failed",
      id: call.id,
      message: error instanceof Error ? error.message : String(error),
      code: (error as { code?: unknown } | null)?.code?.toString() ?? null,
      notAllowed: error instanceof EndpointNotAllowedError,
    });
  const request = sendRequest(call.request, agents, lookup, undefined, (incoming) => {
    const { init, stream } = answerParts(incoming, call.request.method);
    if (!stream) return settle({ type: "answer", id: call.id, init, body: null });
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes > MAX_ANSWER_BYTES)
        stream.destroy(new Error(`The answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB.`));
    });
    stream.once("error", fail);
    stream.once("close", () => fail(new Error("The connection closed before the answer ended.")));
    stream.once("end", () => {
      const body = ownArrayBuffer(chunks);
      settle({ type: "answer", id: call.id, init, body }, [body]);
    });
  });
  request.on("error", fail);
  inFlight.set(call.id, { request, fail });
}

port.on("message", (message: ToCallThread) => {
  switch (message.type) {
    case "call": {
      const { id, gate: key, request } = message;
      const body = request.body ? [new Uint8Array(request.body)] : null;
      gateOf(key).queue.push({ id, request: { ...request, body, parsedUrl: new URL(request.url) } });
      return pump(key);
    }
    case "cancel": {
      const running = inFlight.get(message.id);
      if (running) {
        // Failed here too: a destroyed request whose answer was being decoded may not say so itself.
        running.request.destroy();
        return running.fail(new Error("Cancelled."));
      }
      for (const gate of gates.values()) {
        const index = gate.queue.findIndex((call) => call.id === message.id);
        if (index >= 0) gate.queue.splice(index, 1);
      }
      // Answered like every call, so the main thread never keeps a call that will not end.
      return post({ type: "failed", id: message.id, message: "Cancelled.", code: null, notAllowed: false });
    }
    case "carrier":
      gateOf(message.gate).idle.push({ id: message.carrier, retireAt: message.retireAt });
      return pump(message.gate);
    case "release": {
      const idle = gateOf(message.gate).idle;
      const released = idle.splice(0, message.count);
      for (const carrier of released) retire(message.gate, carrier, true);
      if (released.length < message.count)
        post({ type: "releaseShort", gate: message.gate, by: message.count - released.length });
      return;
    }
    case "pause": {
      const gate = gateOf(message.gate);
      gate.held = false;
      gate.pausedUntil = Math.max(gate.pausedUntil, message.until);
      return pump(message.gate);
    }
  }
});
