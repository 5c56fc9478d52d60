/**
 * The save worker: sends the timeline's waiting changes one request at a time, oldest first, and reports each answer
 * back to the reducer (saved, withdrawn, a 409 with the current span, or a failure that puts the saved state back).
 * One at a time keeps a span's create before its edits and each edit on the version the one before returned; keys
 * and drags go on changing the state meanwhile.
 */
import { useEffect, useRef, type Dispatch } from "react";
import * as api from "./span-api";
import { nextSave, type SaveRequest, type TimelineAction, type TimelineState } from "./span-edits";

export interface SaveTarget {
  videoId: string;
  task: string;
  queueId?: string;
}

async function send(request: SaveRequest, target: SaveTarget) {
  if (request.kind === "create")
    return api.createSpan(target.videoId, {
      task: target.task,
      itemId: request.itemId,
      ...request.draft,
      ...(target.queueId ? { queueId: target.queueId } : {}),
    });
  if (request.kind === "withdraw") return api.withdrawSpan(request.id, request.expectedVersion);
  return api.updateSpan(request.id, request.draft, request.expectedVersion);
}

export function useSpanSaves(state: TimelineState, dispatch: Dispatch<TimelineAction>, target: SaveTarget) {
  const inFlight = useRef(false);
  const request = nextSave(state);
  const targetRef = useRef(target);
  targetRef.current = target;
  useEffect(() => {
    if (!request || inFlight.current) return;
    inFlight.current = true;
    dispatch({ type: "sent", key: request.key });
    send(request, targetRef.current).then(
      (record) => {
        inFlight.current = false;
        if (request.kind === "withdraw") dispatch({ type: "withdrawn", key: request.key });
        else dispatch({ type: "saved", key: request.key, record, at: Date.now() });
      },
      (error: unknown) => {
        inFlight.current = false;
        const current = api.conflictCurrent(error);
        if (current) dispatch({ type: "conflict", key: request.key, current });
        else dispatch({ type: "failed", key: request.key, message: error instanceof Error ? error.message : "error" });
      },
    );
  }, [request, dispatch]);
}
