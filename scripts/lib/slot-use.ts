/** A request as the stub LLM logs it: when it arrived and when it was answered (Date.now(); null: not yet). */
export interface StubRequest {
  at: number;
  endedAt: number | null;
}

/** How long the ramp after the first request counts as "the start" in SlotUse.lost. */
export const RAMP_MS = 2000;

/**
 * Where a run's share of an endpoint's limit went, from the stub's own log of the run's requests:
 * - `startSeconds`: from the run's start to the first request's arrival; `endSeconds`: from the last answer to the
 *   run found done; `meanInFlight`: how many calls were in flight at the stub between those, time-weighted.
 * - `lost`: the slot time left unused, in seconds of all `concurrency` slots (so a second lost is a second of the
 *   whole limit), in four spans that add up to the whole run: before the first request; the RAMP_MS after it;
 *   the middle; and the tail, from the last request's arrival (after which nothing new starts) to the run's end.
 */
export interface SlotUse {
  startSeconds: number;
  endSeconds: number;
  meanInFlight: number;
  lost: { beforeFirst: number; ramp: number; middle: number; tail: number };
}

export function slotUse(
  requests: StubRequest[],
  startedAt: number,
  endedAt: number,
  concurrency: number,
): SlotUse | null {
  if (!requests.length) return null;
  const edges = requests.flatMap((r) => [
    { t: r.at, d: 1 },
    { t: r.endedAt ?? endedAt, d: -1 },
  ]);
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  const first = edges[0]!.t;
  const last = edges[edges.length - 1]!.t;
  const lastArrival = requests.reduce((latest, r) => Math.max(latest, r.at), -Infinity);
  const rampEnd = Math.min(first + RAMP_MS, lastArrival);
  // Busy slot time (call-milliseconds) in each span, from the in-flight count between consecutive edges.
  const spans = [
    { from: startedAt, to: first },
    { from: first, to: rampEnd },
    { from: rampEnd, to: lastArrival },
    { from: lastArrival, to: Math.max(endedAt, last) },
  ];
  const busy = spans.map(() => 0);
  let inFlight = 0;
  let previous = first;
  for (const edge of edges) {
    spans.forEach((span, i) => {
      const overlap = Math.min(edge.t, span.to) - Math.max(previous, span.from);
      if (overlap > 0) busy[i]! += inFlight * overlap;
    });
    inFlight += edge.d;
    previous = edge.t;
  }
  const area = busy.reduce((sum, b) => sum + b, 0);
  const lostSeconds = (i: number) => Math.max(0, spans[i]!.to - spans[i]!.from - busy[i]! / concurrency) / 1000;
  return {
    startSeconds: (first - startedAt) / 1000,
    endSeconds: (endedAt - last) / 1000,
    meanInFlight: last > first ? area / (last - first) : 0,
    lost: { beforeFirst: lostSeconds(0), ramp: lostSeconds(1), middle: lostSeconds(2), tail: lostSeconds(3) },
  };
}
