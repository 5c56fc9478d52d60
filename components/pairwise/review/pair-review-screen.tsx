"use client";

/**
 * The side-by-side review of a pair set: the reviewer's claimed pair in two synced players, the prompt, each aspect
 * with its guideline and verdict buttons, keys for all of it (`?` lists them), and the progress. Data comes from
 * /api/v1/pair-sets/[pairSetId]/review/… (a blind set's answers carry no generator). Sides are as drawn for this
 * reviewer at the claim; swapping is a view action only. Either video can be marked *where* (./pair-spans.tsx).
 */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { isTypingTarget } from "@/components/is-typing-target";
import { postJson } from "@/lib/api-client";
import type { NextPairResponse, PairForReview, ReviewVideo } from "@/lib/pairwise/review/review.types";
import type { Side } from "@/lib/pairwise/verdicts";
import { AspectVerdicts } from "./aspect-verdicts";
import { PairSpans, type PairMarking } from "./pair-spans";
import { aSideNow, initialReviewState, PAIR_REVIEW_KEYS, reviewReducer } from "./review-keys";
import { SyncedPlayers, type ShownVideo, type SyncedPlayersHandle } from "./synced-players";
import { usePairSubmission } from "./use-pair-submission";

/** Keys the screen takes from the browser (Tab and Space would otherwise move the focus or scroll). */
const SCREEN_KEYS = new Set(["Tab", " ", "Enter", "ArrowUp", "ArrowDown", ",", ".", "?", "Backspace"]);

function shown(pair: PairForReview, side: Side, aSide: Side): ShownVideo {
  const video: ReviewVideo = side === aSide ? pair.a : pair.b;
  const where = side === "left" ? "Left" : "Right";
  const caption = pair.blind || !video.generator ? where : `${where}: ${video.generator} (${video.name ?? ""})`;
  return { video, caption };
}

function useScreenKeys(dispatch: React.Dispatch<Parameters<typeof reviewReducer>[1]>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      if (event.key === "Escape") return;
      if (SCREEN_KEYS.has(event.key) || /^Digit\d$/.test(event.code)) event.preventDefault();
      dispatch({ type: "key", press: { key: event.key, code: event.code, shift: event.shiftKey } });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [dispatch]);
}

export function PairReviewScreen({
  projectId,
  pairSetId,
  marking,
}: {
  projectId: string;
  pairSetId: string;
  marking: PairMarking;
}) {
  const [state, dispatch] = useReducer(reviewReducer, initialReviewState);
  const players = useRef<SyncedPlayersHandle | null>(null);
  const query = useQuery({
    queryKey: ["pair-review", pairSetId],
    queryFn: () => postJson<NextPairResponse>(`/api/v1/pair-sets/${pairSetId}/review/next`, {}),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const { data, dataUpdatedAt, refetch } = query;
  useEffect(() => {
    if (data) dispatch({ type: "loaded", pair: data.pair });
  }, [data, dataUpdatedAt]);
  const claimNext = useCallback(() => refetch({ throwOnError: true }), [refetch]);
  usePairSubmission(pairSetId, state, dispatch, claimNext);
  useScreenKeys(dispatch);
  useEffect(() => {
    if (state.commands.length === 0) return;
    for (const command of state.commands) players.current?.run(command);
    dispatch({ type: "commands-done", count: state.commands.length });
  }, [state.commands]);
  const closeHelp = useCallback(() => dispatch({ type: "help", open: false }), []);

  if (query.error) return <p className="text-sm text-red-700">{query.error.message}</p>;
  if (!data) return <p className="text-sm text-slate-500">Claiming your next pair…</p>;
  const progress = `${data.progress.done} of ${data.progress.total} pairs`;
  const pair = state.pair;
  if (!pair)
    return (
      <section data-testid="review-done" className="space-y-2">
        <h2 className="text-lg font-semibold">No pair left for you in this set</h2>
        <p className="text-sm text-slate-600" data-testid="pair-progress">
          {progress} reviewed.
        </p>
      </section>
    );
  const aSide = aSideNow(pair, state.swapped);
  const left = shown(pair, "left", aSide);
  const right = shown(pair, "right", aSide);
  return (
    <section data-testid="pair-review" data-pair-id={pair.pairId} data-a-side={aSide} className="space-y-3">
      <header className="flex flex-wrap items-center gap-3 text-sm">
        <span data-testid="pair-progress" className="font-medium">
          {progress}
        </span>
        <span className="text-slate-500">Pair {pair.position + 1}</span>
        {pair.status === "done" && <span className="rounded bg-emerald-100 px-1 text-xs">submitted</span>}
        <button type="button" className="rounded border px-2" onClick={() => dispatch({ type: "swap" })}>
          Swap sides <kbd className="font-mono text-xs">s</kbd>
        </button>
        <ZoomButtons zoom={state.zoom} dispatch={dispatch} />
        <button type="button" className="rounded border px-2" onClick={() => dispatch({ type: "help", open: true })}>
          Keys <kbd className="font-mono text-xs">?</kbd>
        </button>
      </header>
      <p className="rounded bg-slate-50 p-2 text-sm text-slate-800" data-testid="pair-prompt">
        {pair.prompt}
      </p>
      <SyncedPlayers ref={players} pairId={pair.pairId} left={left} right={right} zoom={state.zoom} />
      <PairSpans key={pair.pairId} projectId={projectId} pair={pair} aSide={aSide} marking={marking} />
      {pair.guidelines && <p className="whitespace-pre-wrap text-xs text-slate-600">{pair.guidelines}</p>}
      <AspectVerdicts
        aspects={pair.aspects}
        focus={state.focus}
        drafts={state.drafts}
        aSide={aSide}
        dispatch={dispatch}
      />
      <footer className="flex items-center gap-3">
        <button
          type="button"
          className="rounded bg-sky-700 px-3 py-1 text-sm text-white disabled:opacity-50"
          disabled={state.busy}
          onClick={() => dispatch({ type: "submit" })}
          data-testid="submit-pair"
        >
          Submit <kbd className="font-mono text-xs">Enter</kbd>
        </button>
        {state.message && (
          <p className="text-sm text-amber-800" role="status" data-testid="review-message">
            {state.message}
          </p>
        )}
      </footer>
      <KeyListOverlay open={state.help} onClose={closeHelp} keys={PAIR_REVIEW_KEYS} title="Pair review keys" />
    </section>
  );
}

function ZoomButtons({
  zoom,
  dispatch,
}: {
  zoom: Side | null;
  dispatch: React.Dispatch<Parameters<typeof reviewReducer>[1]>;
}) {
  return (
    <span className="flex items-center gap-1" data-testid="zoom" data-zoom={zoom ?? "both"}>
      {([null, "left", "right"] as const).map((side) => (
        <button
          key={side ?? "both"}
          type="button"
          aria-pressed={zoom === side}
          className={`rounded border px-2 ${zoom === side ? "bg-slate-200" : ""}`}
          onClick={() => dispatch({ type: "zoom", side })}
        >
          {side === null ? "Both" : side === "left" ? "Left only" : "Right only"}
        </button>
      ))}
      <kbd className="font-mono text-xs">z</kbd>
    </span>
  );
}
