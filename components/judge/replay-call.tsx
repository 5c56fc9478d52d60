"use client";

import { useMutation } from "@tanstack/react-query";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";
import type { ReplayResult } from "@/lib/judge/calls/call-replay";

/** The longest data URL shown whole in a dry run's body; longer ones are cut with their length said. */
const SHOWN_DATA_URL_CHARS = 80;

/**
 * An owner's "Replay this call" on the call inspector: the request rebuilt from the call's record, shown as the exact
 * body that would be sent (a dry run, its frames' data URLs cut short for reading), or sent to the run's endpoint
 * with its answer shown. A replay is stored nowhere and bills nothing into the run.
 */
export function ReplayCall({ runId, callId }: { runId: string; callId: string }) {
  const replay = useMutation({
    mutationFn: (dryRun: boolean) => postJson<ReplayResult>(`/api/v1/runs/${runId}/calls/${callId}/replay`, { dryRun }),
  });
  const result = replay.data;
  return (
    <div className="mt-1 flex flex-col gap-1 text-xs" data-testid="replay-call">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={replay.isPending}
          onClick={() => replay.mutate(true)}
        >
          Show the request body
        </button>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={replay.isPending}
          onClick={() => replay.mutate(false)}
        >
          Replay this call
        </button>
        <span className="text-slate-500">Sent to the run&apos;s endpoint; not stored, not billed into the run.</span>
      </div>
      {replay.isError && (
        <p role="alert" className="text-red-700">
          {replay.error.message}
        </p>
      )}
      {result?.dryRun === true && (
        <div data-testid="replay-body">
          <p className="text-slate-600">
            The body a replay sends ({result.bytes.toLocaleString("en")} bytes, mode {result.mode}):
          </p>
          <pre tabIndex={0} className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2">
            {JSON.stringify(result.body, shortDataUrls, 2)}
          </pre>
        </div>
      )}
      {result?.dryRun === false && (
        <div data-testid="replay-answer">
          <p className="text-slate-600">
            Replayed: {result.bytesSent.toLocaleString("en")} bytes sent, answered in {result.latencyMs} ms
            {result.answer.ok && result.answer.usageKnown
              ? ` · ${result.answer.promptTokens}+${result.answer.completionTokens} tokens reported`
              : ""}
          </p>
          <pre tabIndex={0} className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-indigo-50 p-2">
            {result.answer.ok ? (result.answer.text ?? "(no answer)") : result.answer.error}
          </pre>
        </div>
      )}
    </div>
  );
}

/** A data URL (a frame, a JPEG list, a clip) cut to its start and its length, so a body of frames stays readable. */
function shortDataUrls(_key: string, value: unknown): unknown {
  if (typeof value === "string" && value.startsWith("data:") && value.length > SHOWN_DATA_URL_CHARS)
    return `${value.slice(0, SHOWN_DATA_URL_CHARS)}… (${value.length.toLocaleString("en")} characters)`;
  return value;
}
