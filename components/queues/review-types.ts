/**
 * What the review screen and its hooks share: the item API's payload as the screen reads it, a reviewer's drafts,
 * the queued keys, and the item query every part of the screen caches items under.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { RefObject } from "react";
import { apiFetch } from "@/lib/api-client";
import type { SubmitItemInput } from "@/lib/queues/submit-item.validation";
import type { SubjectSummary } from "@/lib/task-modules/task-display";
import type { PresenceView } from "@/components/queues/presence-step";
import type { SpanLabel } from "@/lib/spans/span-labels";
import type { TargetQuestionView } from "@/components/queues/target-question";

export interface TargetView {
  key: string;
  kind: "verdict" | "overall" | "score";
  label: string;
  required: boolean;
  min: number;
  max: number;
  category: string | null;
  /** The judge's step that gave the score (null for a per-video metric): with scopeIndex, where the judge looked. */
  stepId?: string | null;
  scopeIndex: number | null;
  frameIndexes: number[];
  /** The question the judge was asked, in its words (VBench-2.0's); null: the label says what the target is. */
  question?: TargetQuestionView | null;
  mine: { value: number; note: string | null; reason: string | null; acceptedJudge?: boolean; version: number } | null;
  /** Absent while the queue hides the judge's values from this reviewer. */
  judge?: number | null;
}

export interface ItemView {
  queue: {
    id: string;
    projectId: string;
    name: string;
    /** The judge run the queue reviews: its spans are the judge's on the item's timeline. */
    runId: string;
    scope: string;
    blind: boolean;
    reviewersPerItem: number;
    itemCount: number;
  };
  item: { id: string; position: number };
  /** An item queue's subject under review, by its scope's key (`caption`, `answer`): shown by the task's subject view. */
  [subjectKey: string]: unknown;
  assignment: { status: "claimed" | "done" };
  blind: boolean;
  video: {
    id: string;
    fileName: string;
    prompt: string | null;
    url: string;
    frames: {
      id: string;
      index: number;
      timestampS: number;
      isKeyFrame: boolean;
      cluster: number | null;
      url: string;
    }[];
    /** A uniform frame set: its frames are named by place and time, not as key frames with clusters. */
    uniformFrames?: boolean;
  };
  /** The run's per-video summary, read through the task's metrics; absent while blind. */
  judgeSummary?: SubjectSummary | null;
  targets: TargetView[];
  /** Presence-first queues: the categories asked before any value. */
  presence?: PresenceView | null;
  /** Queues that localise: the span task and labels, and which a present answer requires a span of. */
  localize?: LocalizeView | null;
  nav: { index: number; count: number; previousItemId: string | null; nextItemId: string | null };
  progress: { items: number; complete: number; mine: { done: number } };
  /** The project's and the queue's guidelines (Markdown; empty: none). */
  guidelines?: { project: string; queue: string };
}

/** What a localising item's payload says (lib/queues/localize.ts localizeView; null for other queues). */
export interface LocalizeView {
  /** The spans' task (the run's task id). */
  task: string;
  labels: SpanLabel[];
  /** Presence first: the span labels a "present" answer asks a span of. */
  requiredWhenPresent: string[];
}

export interface Draft {
  value: number | null;
  note: string;
  /** Set by `a` / `A` (the judge's value, taken explicitly); typing a value of one's own clears it. */
  accepted: boolean;
}

/** A key press the screen has taken and not yet applied; `timeStamp` keeps digit chains ("1" "0" → 10) intact when replayed. */
export interface PendingKey {
  key: string;
  timeStamp: number;
}

/** A submission sent while the reviewer already works on the next item; its drafts stay here until it is saved. */
export interface BackgroundSubmission {
  itemId: string;
  label: string;
  drafts: Record<string, Draft>;
  judgments: SubmitItemInput["judgments"];
  /** A presence-first item's presence answers (undefined otherwise). */
  presence?: SubmitItemInput["presence"];
  /** The same answers by category, to reopen the item with them if the submission fails. */
  present: Record<string, boolean> | null;
}

/** What a reviewer typed for an item whose submission has not been saved. */
export interface UnsentWork {
  drafts: Record<string, Draft>;
  present: Record<string, boolean> | null;
}

/** How long a loaded or prefetched item is used without asking the server again; every submit or claim invalidates the queue's items. */
const ITEM_FRESH_MS = 60_000;

export const itemQuery = (queueId: string, itemId: string) => ({
  queryKey: ["queue-item", queueId, itemId],
  queryFn: () => apiFetch<ItemView>(`/api/v1/queues/${queueId}/items/${itemId}`),
  staleTime: ITEM_FRESH_MS,
});

/** Loads the item's frames into the browser cache so the next item shows them at once. */
export function preloadFrames(view: ItemView) {
  for (const frame of view.video.frames) {
    const image = new Image();
    image.src = frame.url;
  }
}

/** Marks every cached item of the queue stale (their links and status change with each submit or claim) without refetching them now. */
export const invalidateItems = (queryClient: QueryClient, queueId: string) =>
  queryClient.invalidateQueries({ queryKey: ["queue-item", queueId], refetchType: "none" });

/** What the screen, which outlives each item, does for the item on screen: claims ahead, background submissions, the hold. */
export interface ScreenSupport {
  pending: RefObject<PendingKey[]>;
  holdOn: RefObject<string | null>;
  navigate: (itemId: string) => void;
  /**
   * The item claimed ahead after `after` (one request per item, shared: its answer carries the item's payload, which
   * goes into the cache with its frames preloaded); null when there is none.
   */
  aheadOf: (after: string) => Promise<string | null>;
  /** True for an item claimed ahead that the reviewer has not opened yet. */
  isReserved: (itemId: string) => boolean;
  submitInBackground: (submission: BackgroundSubmission) => void;
  /** The item was submitted in the foreground: its failure and kept drafts are over. */
  submitted: (itemId: string) => void;
  /** Resolves once every submission sent in the background has been answered (saved or failed). */
  settled: () => Promise<unknown>;
  /** Whether the guidelines are open: one choice for the whole session, not per item. */
  guidelinesShown: boolean;
  toggleGuidelines: () => void;
  /** Leaves the screen for another page once the claims ahead nobody opened are given back. */
  leaveTo: (href: string) => Promise<void>;
  /** Where an item's unsubmitted presence toggles are kept in the browser. */
  draftKey: (itemId: string) => string;
  /** The last item was submitted and nothing is left: says so and reads the item again (its status, and the judge once not blind). */
  finished: (itemId: string, text: string) => void;
  /** What `finished` said of this item, shown again once it is read back. */
  finishedText: (itemId: string) => string | null;
  /**
   * A blind item was submitted and `nextId` comes after it: says so and reads the item again, now with the judge's
   * values, which stay on screen (marked where the reviewer agrees) until the reviewer moves on.
   */
  reveal: (itemId: string, nextId: string, text: string) => void;
  /** The item to go on to from a revealed item; null when the item is not being revealed. */
  revealedNext: (itemId: string) => string | null;
  /** A digit or a click on a value moves the focus on to the next target (an option, kept in the browser). */
  digitAdvances: boolean;
  setDigitAdvances: (on: boolean) => void;
  /** The furthest of the reviewer's items shown on this screen (1-based): the position label counts at least that many. */
  reached: number;
  reach: (position: number) => void;
  /** The reviewer: the span editor of a localising queue tells their own spans from others'. */
  userId: string;
}
