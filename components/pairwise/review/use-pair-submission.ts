/**
 * Sends the verdicts Enter set aside (`state.submitting`) with the versions the pair came with, then claims the next
 * pair; the screen's query answers with it and the reducer applies the keys held meanwhile. A failure leaves the
 * drafts on screen with the server's message.
 */
import { useEffect, useRef, type Dispatch } from "react";
import { ApiError, postJson } from "@/lib/api-client";
import type { PairVerdictInput, SavePairVerdictsResponse } from "@/lib/pairwise/review/review.types";
import type { ReviewAction, ReviewState } from "./review-keys";

export function usePairSubmission(
  pairSetId: string,
  state: ReviewState,
  dispatch: Dispatch<ReviewAction>,
  claimNext: () => Promise<unknown>,
) {
  const sent = useRef<ReviewState["submitting"]>(null);
  const shownAt = useRef(0);
  const pairId = state.pair?.pairId;
  useEffect(() => {
    shownAt.current = Date.now();
  }, [pairId]);
  useEffect(() => {
    const submitting = state.submitting;
    const pair = state.pair;
    if (!submitting || !pair || sent.current === submitting) return;
    sent.current = submitting;
    const versions = new Map(pair.verdicts.map((saved) => [saved.aspect, saved.version]));
    const verdicts: PairVerdictInput[] = Object.entries(submitting.drafts).map(([aspect, draft]) => ({
      aspect,
      verdict: draft.verdict,
      strength: draft.strength,
      version: versions.get(aspect),
    }));
    void (async () => {
      try {
        await postJson<SavePairVerdictsResponse>(`/api/v1/pair-sets/${pairSetId}/review/verdicts`, {
          pairId: submitting.pairId,
          verdicts,
          msToVerdict: Math.max(0, Math.round(Date.now() - shownAt.current)),
          submit: true,
        });
        await claimNext();
      } catch (error) {
        dispatch({
          type: "failed",
          message: error instanceof ApiError ? error.message : "The verdicts could not be saved; try Enter again.",
        });
      }
    })();
  }, [pairSetId, state.submitting, state.pair, dispatch, claimNext]);
}
