import type { StubRequestRecord } from "../llm-stub/stub-server";

/** The most requests the stub had in flight at once, from its log (a request is in flight from `at` until `endedAt`). */
export function peakInFlight(requests: StubRequestRecord[]): number {
  const events = requests.flatMap((r) => [
    { t: r.at, d: 1 },
    { t: r.endedAt ?? Infinity, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d); // an end and a start at the same ms: the end first
  let now = 0;
  let peak = 0;
  for (const e of events) peak = Math.max(peak, (now += e.d));
  return peak;
}
