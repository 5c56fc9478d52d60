"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { isTypingTarget } from "@/components/is-typing-target";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import { MetricsLine, TargetLegend, TaskCode } from "@/components/tasks/target-legend";
import { SubjectViews } from "@/components/tasks/subject-views";
import { subjectValueKeys } from "@/components/tasks/queue-views";
import type { SubmitItemInput } from "@/lib/queues/submit-item.validation";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { ON_TINTED_ROW } from "@/components/class-names";
import { Guidelines } from "@/components/markdown";
import { VideoFramesViewer } from "@/components/videos/video-frames-viewer";
import { PRESENCE_SHORTCUTS, usePresenceStep, type PresenceView } from "@/components/queues/presence-step";
import {
  JudgeAnswersLine,
  QuestionFrames,
  QuestionLabel,
  questionFocus,
  type TargetQuestionView,
} from "@/components/queues/target-question";
import {
  clearPresenceDraft,
  presenceDraftKey,
  readPresenceDraft,
  writePresenceDraft,
} from "@/components/queues/presence-draft";
import { PRESENCE_KEY_SET } from "@/lib/queues/presence-keys";
import {
  awaitsMoreDigits,
  continuesNumber,
  DIGIT_CHAIN_MS,
  typeDigit,
  type TypedNumber,
} from "@/lib/queues/score-keys";
import { missingTargetsMessage } from "@/lib/queues/missing-targets";
import { useDigitAdvances } from "@/components/queues/review-options";
import { scopeFocus } from "@/lib/judge/frame-scopes";
import { findTask, metricOf, projectTasks } from "@/lib/tasks/registry";
import {
  disagrees,
  formatValue,
  isYesNoScale,
  targetIdOfCategory,
  type MetricDeclaration,
  type TargetDeclaration,
  type TaskDeclaration,
} from "@/lib/tasks/task-declaration";
import { scopeLabel, summaryMetricValues, type SubjectSummary } from "@/lib/tasks/task-display";

interface TargetView {
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
interface ItemView {
  queue: {
    id: string;
    projectId: string;
    name: string;
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
  nav: { index: number; count: number; previousItemId: string | null; nextItemId: string | null };
  progress: { items: number; complete: number; mine: { done: number } };
  /** The project's and the queue's guidelines (Markdown; empty: none). */
  guidelines?: { project: string; queue: string };
}
interface Draft {
  value: number | null;
  note: string;
  /** Set by `a` / `A` (the judge's value, taken explicitly); typing a value of one's own clears it. */
  accepted: boolean;
}

/** The screen's keys, with every registered task's verdict names and subject keys (read at render, so a registered toy task's count). */
function reviewShortcuts(projectId: string): [string, string][] {
  const positives = [
    ...new Set(
      projectTasks(projectId).flatMap((task) =>
        task.verdict ? [metricOf(task, task.verdict.metricId)?.label.toLowerCase() ?? task.verdict.metricId] : [],
      ),
    ),
  ];
  return [
    ["j / ↓", "next target"],
    ["k / ↑", "previous target"],
    [
      "0–9",
      `score the focused target (10: type 1 then 0 within ${DIGIT_CHAIN_MS} ms); with "a score moves on", the focus then goes to the next target`,
    ],
    [
      "y / n",
      `answer yes / no: the item's verdict, else the focused yes/no question (also 1 / 0${positives.length ? `; a verdict's yes is ${positives.join(" / ")}` : ""})`,
    ],
    ...Object.values(subjectValueKeys()).map((keys) => keys.help),
    ...CORE_SHORTCUTS_AFTER,
  ];
}

const CORE_SHORTCUTS_AFTER: [string, string][] = [
  ["a", "accept the judge's value for the focused target"],
  ["A", "accept all the judge's values"],
  ["m", "write a note on the focused target (Esc leaves it)"],
  ["g", "show / hide the guidelines"],
  ["Enter", "submit and go to the next item (blind queue: first shows the judge's values; Enter again goes on)"],
  ["] / →", "next item"],
  ["[ / ←", "previous item (your own)"],
  ["Space", "play / pause the video"],
  ["?", "show / hide this help"],
];

/**
 * A score's category target (an indexed category, `material:q2`, is its declared target's), or the per-video metric a
 * verdict/overall target judges; null when the task declares neither.
 */
function declarationOf(
  task: TaskDeclaration | null,
  target: Pick<TargetView, "key" | "category">,
): TargetDeclaration | MetricDeclaration | null {
  if (!task) return null;
  if (target.category === null) return task.metrics.find((m) => m.id === target.key) ?? null;
  const id = targetIdOfCategory(task, target.category);
  return task.targets.find((t) => t.id === id) ?? null;
}

/** A value on the target's declared scale: a named value in words, a number as every score reads (lib/format/numbers). */
const show = (declared: TargetDeclaration | MetricDeclaration | null, value: number | null | undefined) =>
  formatValue(declared ?? { scale: { kind: "numeric", min: -Infinity, max: Infinity, step: null } }, value);

/** The values a mouse picks from for a target: a categorical scale's named values, or each whole number of a short numeric scale; null: a number field. */
function scoreChoices(
  declared: TargetDeclaration | MetricDeclaration | null,
  target: TargetView,
): { value: number; label: string }[] | null {
  if (declared?.scale.kind === "categorical")
    return declared.scale.values.map((v) => ({ value: v.value, label: v.label }));
  if (!Number.isInteger(target.min) || !Number.isInteger(target.max) || target.max - target.min > 10) return null;
  return Array.from({ length: target.max - target.min + 1 }, (_, i) => ({
    value: target.min + i,
    label: String(target.min + i),
  }));
}

/** Whether the reviewer's value counts as agreeing with the judge's: closer than the target's declared disagreement gap. */
function agreesWithJudge(
  declared: TargetDeclaration | MetricDeclaration | null,
  target: TargetView,
  mine: number,
  judge: number,
): boolean {
  return !disagrees(
    declared ?? { scale: { kind: "numeric", min: target.min, max: target.max, step: null } },
    mine,
    judge,
  );
}

/** Put in the key queue by the screen itself when a digit's wait for a second digit is over: the focus moves on then. */
const ADVANCE_KEY = "@advance";
/** Keys that look around a revealed item (after a blind submit); any other key goes on to the next item. */
const REVEAL_LOOK_KEY = /^(?:[jkg?[ ]|Escape|Arrow(?:Up|Down|Left))$/;

/** A key press the screen has taken and not yet applied; `timeStamp` keeps digit chains ("1" "0" → 10) intact when replayed. */
interface PendingKey {
  key: string;
  timeStamp: number;
}

/** Keys the review screen acts on: they are taken (and queued) even while the next item is still on its way. */
const REVIEW_KEY = /^(?:[0-9jkyanmcwgA?[\] ]|Enter|Escape|Arrow(?:Up|Down|Left|Right))$/;
/** How long a loaded or prefetched item is used without asking the server again; every submit or claim invalidates the queue's items. */
const ITEM_FRESH_MS = 60_000;

const itemQuery = (queueId: string, itemId: string) => ({
  queryKey: ["queue-item", queueId, itemId],
  queryFn: () => apiFetch<ItemView>(`/api/v1/queues/${queueId}/items/${itemId}`),
  staleTime: ITEM_FRESH_MS,
});

/** Loads the item's frames into the browser cache so the next item shows them at once. */
function preloadFrames(view: ItemView) {
  for (const frame of view.video.frames) {
    const image = new Image();
    image.src = frame.url;
  }
}

/** Marks every cached item of the queue stale (their links and status change with each submit or claim) without refetching them now. */
const invalidateItems = (queryClient: QueryClient, queueId: string) =>
  queryClient.invalidateQueries({ queryKey: ["queue-item", queueId], refetchType: "none" });

/** What the queue overview API says of the queue's progress, read again after each submission made in the background. */
interface QueueProgressView {
  progress: { items: number; complete: number };
  mine: { done: number };
}

/** A submission sent while the reviewer already works on the next item; its drafts stay here until it is saved. */
interface BackgroundSubmission {
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
interface UnsentWork {
  drafts: Record<string, Draft>;
  present: Record<string, boolean> | null;
}

/** What the screen, which outlives each item, does for the item on screen: claims ahead, background submissions, the hold. */
interface ScreenSupport {
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
}

/**
 * The keyboard-first review screen for one of the reviewer's queue items; `pipeline` is the queue's run's, whose task names every code.
 * It stays mounted from item to item (moving on rewrites the address with history.pushState), so no key is lost in a
 * transition: every key goes into one queue, and the item on screen applies them one render at a time; after Enter the
 * queue is held until the next item is on screen, and the keys typed meanwhile apply to it.
 * While the reviewer works on an item, the item after it is claimed ahead and loaded (payload and frames), so Enter shows
 * it at once and the submission goes in the background; one that fails says so here and keeps its typed values.
 */
export function ReviewScreen({
  projectId,
  queueId,
  itemId: pageItemId,
  pipeline,
  userId,
}: {
  projectId: string;
  queueId: string;
  itemId: string;
  pipeline: string | null;
  /** The reviewer: keys their drafts in the browser. */
  userId: string;
}) {
  const itemBase = `/projects/${projectId}/queues/${queueId}/items/`;
  const pathname = usePathname();
  const addressed = pathname?.startsWith(itemBase)
    ? decodeURIComponent(pathname.slice(itemBase.length).split("/")[0]!)
    : pageItemId;
  // The item on screen changes at once when the screen moves on (an urgent update), not when the router has caught
  // up with the new address (a transition, which React may render and throw away): the items pushed and not yet
  // addressed lead; back / forward (an address that was not pushed) drops them.
  const [pushed, setPushed] = useState<string[]>([]);
  const itemId = pushed.at(-1) ?? addressed;
  useEffect(() => {
    setPushed((ids) => {
      const at = ids.indexOf(addressed);
      return at >= 0 ? (at === ids.length - 1 ? [] : ids.slice(at + 1)) : ids.length ? [] : ids;
    });
  }, [addressed]);
  const queryClient = useQueryClient();
  const pending = useRef<PendingKey[]>([]);
  /** The item whose submission or departure is under way: queued keys wait for the item after it. */
  const holdOn = useRef<string | null>(null);
  const [, setTaken] = useState(0);
  /** Items claimed ahead and not opened yet: released when the reviewer leaves. */
  const reservedIds = useRef(new Set<string>());
  /** Items shown on this screen: never released (a claim ahead can answer after its item was reached another way). */
  const openedIds = useRef(new Set<string>());
  /** The claim-ahead request made after each item, so every item asks once. */
  const aheadRequests = useRef(new Map<string, Promise<string | null>>());
  /** Drafts of items whose background submission is on its way or failed, by item. */
  const unsent = useRef(new Map<string, UnsentWork>());
  const inflight = useRef(new Set<Promise<unknown>>());
  const [failures, setFailures] = useState<{ itemId: string; label: string; message: string }[]>([]);
  const [guidelinesShown, setGuidelinesShown] = useState(true);
  const [finishedNotes, setFinishedNotes] = useState<Record<string, string>>({});
  /** Blind items submitted and shown with the judge's values, each with the item to go on to. */
  const [reveals, setReveals] = useState<Record<string, string>>({});
  const [digitAdvances, setDigitAdvances] = useDigitAdvances();
  const [reached, setReached] = useState(0);
  const reach = useCallback((position: number) => setReached((furthest) => Math.max(furthest, position)), []);
  const progress = useQuery({
    queryKey: ["queue-progress", queueId],
    queryFn: () => apiFetch<QueueProgressView>(`/api/v1/queues/${queueId}`),
    refetchOnWindowFocus: false,
  });

  openedIds.current.add(itemId);
  reservedIds.current.delete(itemId);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTypingTarget(event.target)) {
        if (event.key === "Escape") {
          event.preventDefault();
          (event.target as HTMLElement).blur();
          document.querySelector<HTMLElement>('[data-testid="review-screen"]')?.focus();
        }
        return;
      }
      if (
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        !(REVIEW_KEY.test(event.key) || PRESENCE_KEY_SET.has(event.key) || event.key === "p")
      )
        return;
      event.preventDefault();
      pending.current.push({ key: event.key, timeStamp: event.timeStamp || performance.now() });
      setTaken((n) => n + 1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  /** Set once the reviewer leaves: a claim ahead answered after that is given back at once. */
  const left = useRef(false);
  const releaseOne = useCallback(
    (id: string) =>
      fetch(`/api/v1/queues/${queueId}/items/${encodeURIComponent(id)}/release`, {
        method: "POST",
        keepalive: true,
        headers: { "content-type": "application/json" },
        body: "{}",
      }).then(
        () => undefined,
        () => undefined,
      ),
    [queueId],
  );
  /** Gives back the claims ahead nobody opened; resolves once the server has answered each release. */
  const releaseReserved = useCallback(() => {
    left.current = true;
    const ids = [...reservedIds.current];
    reservedIds.current.clear();
    return Promise.all(ids.map(releaseOne));
  }, [releaseOne]);
  // Leaving the screen (another page, closing the tab, reloading) gives back the claims ahead nobody opened.
  useEffect(() => {
    left.current = false;
    const onPageHide = () => void releaseReserved();
    // Back from the browser's page cache: the screen is in use again.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) left.current = false;
    };
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
      void releaseReserved();
    };
  }, [releaseReserved]);
  /**
   * The screen's own way out (the queue overview): the releases are answered before the overview is asked for, so it
   * does not count the claims given back as still in progress (so a release racing the page load is not lost).
   */
  const leaveTo = useCallback(
    async (href: string) => {
      // A claim ahead still on its way is waited for (briefly), so it is given back too.
      await Promise.race([
        Promise.allSettled([...aheadRequests.current.values()]),
        new Promise((resolve) => setTimeout(resolve, 1500)),
      ]);
      await Promise.race([releaseReserved(), new Promise((resolve) => setTimeout(resolve, 3000))]);
      window.location.assign(href);
    },
    [releaseReserved],
  );

  const navigate = useCallback(
    (id: string) => {
      // Leaving a revealed item ends its reveal: opened again later, it is an ordinary submitted item.
      if (Object.keys(reveals).length > 0) {
        setReveals({});
        setFinishedNotes((notes) => Object.fromEntries(Object.entries(notes).filter(([noted]) => !(noted in reveals))));
      }
      setPushed((ids) => [...ids, id]);
      window.history.pushState(null, "", itemBase + encodeURIComponent(id));
    },
    [itemBase, reveals],
  );

  const support: ScreenSupport = {
    pending,
    holdOn,
    navigate,
    aheadOf: (after) => {
      let request = aheadRequests.current.get(after);
      if (!request) {
        request = postJson<{ itemId: string | null; item?: ItemView | null }>(
          `/api/v1/queues/${queueId}/items/${encodeURIComponent(after)}/ahead?payload=1`,
          {},
        ).then(
          ({ itemId: aheadId, item: payload }) => {
            // None now (nothing left, or too many open claims): a later item may ask again.
            if (!aheadId) {
              aheadRequests.current.delete(after);
              return null;
            }
            // A claim nobody opens is released on leaving (at once when the reviewer has already left).
            if (!openedIds.current.has(aheadId)) {
              if (left.current) {
                void releaseOne(aheadId);
                return null;
              }
              reservedIds.current.add(aheadId);
            }
            if (payload && !queryClient.getQueryData(["queue-item", queueId, aheadId])) {
              queryClient.setQueryData(["queue-item", queueId, aheadId], payload);
              preloadFrames(payload);
            }
            return aheadId;
          },
          () => {
            // Without a claim ahead, Enter claims the next item as it submits.
            aheadRequests.current.delete(after);
            return null;
          },
        );
        aheadRequests.current.set(after, request);
      }
      return request;
    },
    isReserved: (id) => reservedIds.current.has(id),
    settled: () => Promise.allSettled([...inflight.current]),
    guidelinesShown,
    toggleGuidelines: () => setGuidelinesShown((shown) => !shown),
    leaveTo,
    draftKey: (id) => presenceDraftKey(userId, queueId, id),
    finished: (id, text) => {
      setFinishedNotes((notes) => ({ ...notes, [id]: text }));
      void refetchAfterWrite(queryClient, ["queue-item", queueId, id]);
    },
    finishedText: (id) => finishedNotes[id] ?? null,
    reveal: (id, nextId, text) => {
      setReveals((shown) => ({ ...shown, [id]: nextId }));
      setFinishedNotes((notes) => ({ ...notes, [id]: text }));
      void refetchAfterWrite(queryClient, ["queue-item", queueId, id]);
    },
    revealedNext: (id) => reveals[id] ?? null,
    digitAdvances,
    setDigitAdvances,
    reached,
    reach,
    submitted: (id) => {
      unsent.current.delete(id);
      setFailures((f) => f.filter((x) => x.itemId !== id));
      void refetchAfterWrite(queryClient, ["queue-progress", queueId]);
    },
    submitInBackground: ({ itemId: sentId, label, drafts, judgments, presence, present }) => {
      const work = { drafts, present };
      unsent.current.set(sentId, work);
      setFailures((f) => f.filter((x) => x.itemId !== sentId));
      const sent = postJson(`/api/v1/queues/${queueId}/items/${sentId}/submit`, { judgments, presence })
        .then(() => {
          if (unsent.current.get(sentId) === work) unsent.current.delete(sentId);
          clearPresenceDraft(presenceDraftKey(userId, queueId, sentId));
        })
        .catch((error: unknown) => {
          setFailures((f) => [
            ...f.filter((x) => x.itemId !== sentId),
            { itemId: sentId, label, message: error instanceof Error ? error.message : "Could not submit." },
          ]);
        })
        .finally(() => {
          inflight.current.delete(sent);
          // Its status, versions and the queue's counts changed (or, after a conflict, the saved values): read again when shown.
          void queryClient.invalidateQueries({ queryKey: ["queue-item", queueId, sentId], refetchType: "none" });
          void refetchAfterWrite(queryClient, ["queue-progress", queueId]);
        });
      inflight.current.add(sent);
    },
  };

  const item = useQuery({
    ...itemQuery(queueId, itemId),
    // A refetch would reset what the reviewer is typing; the item is reloaded after submitting.
    refetchOnWindowFocus: false,
  });
  const failed =
    failures.length > 0 ? (
      <div className="mb-3 flex flex-col gap-1" data-testid="submit-failures">
        {failures.map((f) => (
          <p
            key={f.itemId}
            role="alert"
            className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-800"
            data-testid="submit-failed"
          >
            {f.label} was not submitted: {f.message} Your values are kept.{" "}
            {f.itemId !== itemId && (
              <button type="button" className="underline" onClick={() => navigate(f.itemId)}>
                Go back to it
              </button>
            )}
          </p>
        ))}
      </div>
    ) : null;
  // Cached data of an item opened again (← to an earlier item) can be stale: its previous/next links and
  // status predate later submits, so keys acted on it would go to the wrong item. Wait for the refetch.
  if (item.isPending || item.isRefetching)
    return (
      <>
        {failed}
        <p className="text-sm text-slate-500" data-testid="review-loading">
          Loading the item…
        </p>
      </>
    );
  if (item.error)
    return (
      <>
        {failed}
        <p role="alert" className="text-sm text-red-700" data-testid="review-error">
          {item.error.message}
        </p>
      </>
    );
  const live =
    progress.data && progress.dataUpdatedAt > item.dataUpdatedAt
      ? { items: progress.data.progress.items, complete: progress.data.progress.complete, mine: progress.data.mine }
      : null;
  return (
    <>
      {failed}
      <ItemReview
        key={`${itemId}:${item.dataUpdatedAt}`}
        projectId={projectId}
        data={item.data}
        task={findTask(pipeline)}
        support={support}
        restored={unsent.current.get(itemId) ?? null}
        liveProgress={live}
      />
    </>
  );
}

function ItemReview({
  projectId,
  data,
  task,
  support,
  restored,
  liveProgress,
}: {
  projectId: string;
  data: ItemView;
  task: TaskDeclaration | null;
  support: ScreenSupport;
  /** The drafts of a submission of this item that has not (yet) been saved. */
  restored: UnsentWork | null;
  /** The queue's counts when read after this item's payload (submissions made since). */
  liveProgress: ItemView["progress"] | null;
}) {
  const { pending, holdOn, navigate } = support;
  const shortcuts = reviewShortcuts(projectId);
  const queryClient = useQueryClient();
  const queueId = data.queue.id;
  const [focus, setFocus] = useState(0);
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() =>
    Object.fromEntries(
      data.targets.map((t) => [
        t.key,
        restored?.drafts[t.key] ?? {
          value: t.mine?.value ?? null,
          note: t.mine?.note ?? "",
          accepted: t.mine?.acceptedJudge ?? false,
        },
      ]),
    ),
  );
  /** The item claimed ahead of this one (when the payload predates that claim, its nav does not name it). */
  const [aheadId, setAheadId] = useState<string | null>(null);
  const firstAhead = useRef<Promise<string | null> | null>(null);
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);
  /** The screen's one status line; `jumpTo`: the key of a target left without a value, which a button goes to. */
  const [message, setMessage] = useState<{ text: string; tone: "info" | "error"; jumpTo?: string } | null>(() => {
    const finished = support.finishedText(data.item.id);
    return finished ? { text: finished, tone: "info" } : null;
  });
  const [busy, setBusy] = useState(false);
  const [, setApplied] = useState(0);
  const typed = useRef<TypedNumber | null>(null);
  /** "A score moves on": a digit whose number may still grow (1 on 0–10) moves the focus on after the chain window, not at once. */
  const deferredMove = useRef<{ target: string; at: number } | null>(null);
  const deferredTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The focus has just moved on by itself: a j or ↓ typed next does not move it again (j between scores still lands on the next target). */
  const movedOn = useRef(false);
  useEffect(() => () => clearTimeout(deferredTimer.current), []);
  const revealedNext = support.revealedNext(data.item.id);
  /** A blind item just submitted, shown with the judge's values until the reviewer goes on to `revealedNext`. */
  const revealing = revealedNext !== null && data.assignment.status === "done" && !data.blind;
  /** Submitted, but its video stays blind (another item of it waits for the reviewer): nothing to show, so go on. */
  const revealWithheld = revealedNext !== null && data.assignment.status === "done" && data.blind;
  const noteRefs = useRef(new Map<string, HTMLTextAreaElement>());
  const screen = useRef<HTMLDivElement>(null);
  const draftKey = support.draftKey(data.item.id);
  const [presenceDraft] = useState(() =>
    data.presence && typeof window !== "undefined" ? readPresenceDraft(draftKey) : null,
  );
  const presence = usePresenceStep(
    data.presence,
    data.targets.map((t) => t.key),
    restored?.present ?? null,
    presenceDraft,
  );
  // Toggles typed and not submitted are kept in the browser until the item is submitted (a reload keeps them).
  const presenceAnswers = JSON.stringify(presence.answers());
  const presenceChanged = presence.changed;
  useEffect(() => {
    if (!data.presence) return;
    if (presenceChanged) writePresenceDraft(draftKey, JSON.parse(presenceAnswers) as Record<string, boolean>);
    else clearPresenceDraft(draftKey);
  }, [data.presence, draftKey, presenceAnswers, presenceChanged]);
  // Presence-first: only the targets of categories someone says are present are asked.
  const targets = data.targets.filter((t) => presence.isAsked(t.key));
  const focused = targets[focus];
  const hasGuidelines = Boolean(data.guidelines?.project || data.guidelines?.queue);
  /** Leaves this item: keys still queued apply to the one it goes to. */
  const leaveFor = useCallback(
    (id: string) => {
      holdOn.current = data.item.id;
      navigate(id);
    },
    [data.item.id, holdOn, navigate],
  );
  /** Stops holding keys for a next item that is not coming; says how many typed keys that drops. */
  const release = useCallback(() => {
    holdOn.current = null;
    const dropped = pending.current.splice(0).length;
    return dropped ? ` (${dropped} key${dropped === 1 ? "" : "s"} typed after Enter not applied)` : "";
  }, [holdOn, pending]);

  // While the reviewer works on an unsubmitted item, the two items after it are claimed ahead and loaded, frames
  // included (two, so that an answer slower than the reviewer's typing is not waited for); on an earlier item of
  // theirs, the next one is loaded.
  useEffect(() => {
    if (data.assignment.status !== "claimed") {
      const nextId = data.nav.nextItemId;
      if (nextId)
        void queryClient.prefetchQuery(itemQuery(queueId, nextId)).then(() => {
          const next = queryClient.getQueryData<ItemView>(["queue-item", queueId, nextId]);
          if (next) preloadFrames(next);
        });
      return;
    }
    let left = false;
    firstAhead.current = support.aheadOf(data.item.id);
    void firstAhead.current.then((next) => {
      if (!next) return;
      if (!left) setAheadId(next);
      return support.aheadOf(next);
    });
    return () => {
      left = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per item shown
  }, [data.item.id]);

  useEffect(() => {
    if (revealWithheld) leaveFor(revealedNext);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the submitted item is read back
  }, []);

  const { reach } = support;
  useEffect(() => reach(data.nav.index + 1), [data.nav.index, reach]);

  const setValue = useCallback((key: string, value: number) => {
    setDrafts((d) => ({ ...d, [key]: { ...d[key]!, value, accepted: false } }));
    setMessage((m) => (m?.tone === "error" ? null : m));
  }, []);

  const goNext = useCallback(async () => {
    const nextId = data.nav.nextItemId;
    // An item claimed ahead is a new one: it comes after this one is submitted.
    if (nextId && !(data.assignment.status !== "done" && support.isReserved(nextId))) return leaveFor(nextId);
    if (data.assignment.status !== "done")
      return setMessage({ text: "Submit this item (Enter) before taking a new one.", tone: "info" });
    holdOn.current = data.item.id;
    try {
      // The server hands out the oldest open claim: wait until the submissions on their way have closed theirs.
      await support.settled();
      const { itemId } = await postJson<{ itemId: string | null }>(`/api/v1/queues/${queueId}/next`, {});
      await invalidateItems(queryClient, queueId);
      if (itemId && itemId !== data.item.id) return leaveFor(itemId);
      setMessage({ text: "Nothing is left for you in this queue. Thank you!" + release(), tone: "info" });
    } catch (error) {
      setMessage({
        text: (error instanceof Error ? error.message : "Could not take the next item.") + release(),
        tone: "error",
      });
    }
  }, [data, holdOn, leaveFor, queryClient, queueId, release, support]);

  const submit = useCallback(async () => {
    // A second Enter while this item is on its way out belongs to the next item (it waits in the queue).
    if (holdOn.current === data.item.id) return;
    // Presence-first: only the targets of categories someone says are present are asked (and required).
    const missing = targets.filter((t) => t.required && drafts[t.key]!.value === null);
    if (missing.length > 0)
      return setMessage({
        text: missingTargetsMessage(
          missing.map((t) => t.label),
          targets.length,
        ),
        tone: "error",
        jumpTo: missing[0]!.key,
      });
    const judgments: SubmitItemInput["judgments"] = targets
      .filter((t) => drafts[t.key]!.value !== null)
      .map((t) => ({
        target: t.key,
        value: drafts[t.key]!.value!,
        note: drafts[t.key]!.note.trim() || null,
        ...(drafts[t.key]!.accepted ? { acceptedJudge: true } : {}),
        expectedVersion: t.mine?.version,
      }));
    let known = data.nav.nextItemId ?? aheadId;
    holdOn.current = data.item.id;
    // The claim ahead is on its way: its answer (with the item) is nearer than a submission that claims.
    if (!known && data.assignment.status === "claimed" && firstAhead.current) known = await firstAhead.current;
    // The next item is known (and loaded, or on its way): show it now and let the submission go in the background.
    // Not from a blind item: its judge's values are shown once it is saved, before the reviewer goes on.
    if (known && !data.blind) {
      support.submitInBackground({
        itemId: data.item.id,
        label: `Your item ${data.nav.index + 1}`,
        drafts,
        judgments,
        presence: presence.judgments(),
        present: presence.answers(),
      });
      return leaveFor(known);
    }
    setBusy(true);
    setMessage({ text: "Submitting…", tone: "info" });
    try {
      // Without a known next item the server claims it and sends it back with the submission: one round trip. It
      // hands out the oldest open claim, so the submissions still on their way must have closed theirs first.
      await support.settled();
      const result = await postJson<{ next?: ItemView | null }>(
        `/api/v1/queues/${queueId}/items/${data.item.id}/submit${known ? "" : "?next=1"}`,
        { judgments, presence: presence.judgments() },
      );
      support.submitted(data.item.id);
      clearPresenceDraft(draftKey);
      await invalidateItems(queryClient, queueId);
      if (result.next) {
        queryClient.setQueryData(["queue-item", queueId, result.next.item.id], result.next);
        preloadFrames(result.next);
      }
      const nextId = known ?? result.next?.item.id ?? null;
      // Keys typed since Enter are for the next item: the reviewer has gone on, so go there without the reveal.
      // Keys typed from here on wait for the item read back (the hold ends there): they act on the reveal.
      if (nextId && data.blind && pending.current.length === 0) {
        return support.reveal(
          data.item.id,
          nextId,
          "Submitted: the judge's values are shown beside yours. Enter, → or Next item goes on (a score key starts the next item).",
        );
      }
      if (nextId) return leaveFor(nextId);
      // Read the item again: its header says submitted, and a blind queue now shows the judge's values.
      support.finished(data.item.id, "Submitted. Nothing is left for you in this queue. Thank you!" + release());
    } catch (error) {
      if (error instanceof ApiError && error.status === 409)
        await refetchAfterWrite(queryClient, ["queue-item", queueId, data.item.id]);
      setMessage({ text: (error instanceof Error ? error.message : "Could not submit.") + release(), tone: "error" });
    } finally {
      setBusy(false);
    }
  }, [
    aheadId,
    data,
    drafts,
    draftKey,
    holdOn,
    leaveFor,
    pending,
    queryClient,
    queueId,
    release,
    support,
    presence,
    targets,
  ]);

  const accept = useCallback(
    (targets: TargetView[]) => {
      if (data.blind)
        return setMessage({
          text: "Blind queue: the judge's values are hidden until you submit, so there is nothing to accept.",
          tone: "error",
        });
      const withJudge = targets.filter((t) => t.judge !== null && t.judge !== undefined);
      if (withJudge.length === 0) return setMessage({ text: "The judge gave no value here.", tone: "error" });
      setDrafts((d) => ({
        ...d,
        ...Object.fromEntries(withJudge.map((t) => [t.key, { ...d[t.key]!, value: t.judge!, accepted: true }])),
      }));
      setMessage({
        text:
          withJudge.length === 1
            ? `Accepted the judge's value for ${withJudge[0]!.label}.`
            : `Accepted ${withJudge.length} judge values.`,
        tone: "info",
      });
    },
    [data.blind],
  );

  /** The focus moves to the target after `index` (it stays on the last). */
  const moveOnFrom = (index: number) => {
    setFocus(Math.min(index + 1, targets.length - 1));
    movedOn.current = true;
  };
  const cancelDeferredMove = () => {
    clearTimeout(deferredTimer.current);
    const deferred = deferredMove.current;
    deferredMove.current = null;
    return deferred;
  };
  /** Leaves a revealed item for the one after it. */
  const goOnFromReveal = () => {
    if (revealedNext) leaveFor(revealedNext);
  };

  /**
   * A value for the target at `index`, from a click on one of its values: the same as typing it (the focus goes there,
   * or on to the next target with "a score moves on").
   */
  const clickValue = (index: number, value: number) => {
    if (holdOn.current === data.item.id || revealing) return;
    cancelDeferredMove();
    typed.current = null;
    movedOn.current = false;
    setValue(targets[index]!.key, value);
    if (support.digitAdvances) moveOnFrom(index);
    else setFocus(index);
  };

  /** A button that does what a key does goes through the same queue as the key. */
  const pressKey = (key: string) => {
    pending.current.push({ key, timeStamp: performance.now() });
    setApplied((n) => n + 1);
  };

  const applyKey = (pressed: PendingKey) => {
    const { key, timeStamp } = pressed;
    if (key === ADVANCE_KEY) {
      if (cancelDeferredMove()) moveOnFrom(focus);
      return;
    }
    // A revealed item is for looking: j/k, help, guidelines, the player and ← stay here; Enter, ] and → go on, and
    // any other key goes on and applies to the next item (typed straight after Enter, it was meant for that one).
    if (revealing && !REVEAL_LOOK_KEY.test(key)) {
      if (key !== "Enter" && key !== "]" && key !== "ArrowRight") pending.current.unshift(pressed);
      return goOnFromReveal();
    }
    const deferred = cancelDeferredMove();
    let justMoved = movedOn.current;
    movedOn.current = false;
    // A digit's move that was due before this key (keys replayed after a hold carry their own times) happens first.
    if (deferred && !/^[0-9]$/.test(key) && timeStamp - deferred.at > DIGIT_CHAIN_MS) {
      moveOnFrom(focus);
      movedOn.current = false;
      justMoved = true;
    }
    if (justMoved && (key === "j" || key === "ArrowDown")) return;
    if (key === "?") return setHelp((h) => !h);
    if (presence.handleKey(key)) return;
    if (key === "Escape") return setHelp(false);
    if (key === "g") {
      if (!hasGuidelines) return setMessage({ text: "This project and queue have no guidelines.", tone: "info" });
      return support.toggleGuidelines();
    }
    if (key === "j" || key === "ArrowDown") return setFocus((f) => Math.min(f + 1, targets.length - 1));
    if (key === "k" || key === "ArrowUp") return setFocus((f) => Math.max(f - 1, 0));
    if (key === "]" || key === "ArrowRight") return void goNext();
    if (key === "[" || key === "ArrowLeft") {
      if (data.nav.previousItemId) leaveFor(data.nav.previousItemId);
      else setMessage({ text: "This is your first item in this queue.", tone: "info" });
      return;
    }
    if (key === "Enter") return void submit();
    if (key === " ") {
      const player = document.querySelector<HTMLVideoElement>('[data-testid="player"]');
      if (player) {
        if (player.paused) void player.play().catch(() => {});
        else player.pause();
      }
      return;
    }
    if (key === "A") return accept(targets);
    if (!focused) return;
    if (key === "a") return accept([focused]);
    if (key === "m") {
      // The note field is always rendered for the focused target.
      noteRefs.current.get(focused.key)?.focus();
      return;
    }
    const verdict = targets.find((t) => t.kind === "verdict");
    if ((key === "y" || key === "n") && verdict) {
      setValue(verdict.key, key === "y" ? 1 : 0);
      setFocus(targets.indexOf(verdict));
      return;
    }
    // Without a verdict, y / n answer the focused yes/no question (as 1 / 0 do), moving on as a digit does.
    const declaredScale = declarationOf(task, focused)?.scale;
    if ((key === "y" || key === "n") && declaredScale && isYesNoScale(declaredScale)) {
      typed.current = null;
      setValue(focused.key, key === "y" ? 1 : 0);
      if (support.digitAdvances) moveOnFrom(focus);
      return;
    }
    // A key pair the item's subject view declares (its task's views) sets that target to 1 or 0.
    for (const [subjectKey, keys] of Object.entries(subjectValueKeys())) {
      if ((key !== keys.one && key !== keys.zero) || !data[subjectKey]) continue;
      const target = data.targets.find((t) => t.category === keys.category);
      if (!target) continue;
      setValue(target.key, key === keys.one ? 1 : 0);
      setFocus(data.targets.indexOf(target));
      return;
    }
    if (/^[0-9]$/.test(key)) {
      const digit = Number(key);
      let index = focus;
      // "A score moves on": the focused target's number is complete (this digit does not continue it), so the digit is the next target's.
      if (
        support.digitAdvances &&
        deferred &&
        deferred.target === focused.key &&
        !continuesNumber(typed.current, focused.key, digit, timeStamp, focused)
      ) {
        index = Math.min(focus + 1, targets.length - 1);
        typed.current = null;
      }
      const target = targets[index]!;
      const next = typeDigit(typed.current, target.key, digit, timeStamp, target);
      if (index !== focus) setFocus(index);
      if (!next) return setMessage({ text: `${target.label} takes ${target.min}–${target.max}.`, tone: "error" });
      typed.current = next;
      setValue(target.key, next.value);
      if (!support.digitAdvances) return;
      if (!awaitsMoreDigits(next, target)) return moveOnFrom(index);
      // 1 on 0–10 may become 10: move on once no second digit has come within the chain window.
      deferredMove.current = { target: target.key, at: timeStamp };
      deferredTimer.current = setTimeout(() => {
        pending.current.push({ key: ADVANCE_KEY, timeStamp: performance.now() });
        setApplied((n) => n + 1);
      }, DIGIT_CHAIN_MS);
    }
  };

  // One queued key per render, so each key sees the state the previous one left (focus, drafts, digit chain);
  // none while this item is on its way out: those keys are for the next item.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after every render on purpose: each render applies the next queued key
  useEffect(() => {
    if (holdOn.current === data.item.id) {
      // The item read back after a blind submit: the keys held since then act on it.
      if (!revealing) return;
      holdOn.current = null;
    }
    if (holdOn.current !== null) holdOn.current = null;
    const key = pending.current.shift();
    if (!key) return;
    applyKey(key);
    setApplied((n) => n + 1);
  });

  const player = useRef<HTMLVideoElement>(null);
  /** Where the judge looked for the focused score: the player seeks there and the strip lights those frames. */
  const looked = focused?.question
    ? questionFocus(data.video.frames, focused.frameIndexes)
    : focused?.stepId && focused.scopeIndex !== null && focused.frameIndexes.length > 0
      ? scopeFocus(data.video.frames, focused.stepId, focused.scopeIndex)
      : null;
  const seekS = looked?.seekS ?? null;
  useEffect(() => {
    document.querySelector(`[data-target-index="${focus}"]`)?.scrollIntoView({ block: "nearest" });
    const video = player.current;
    if (video && seekS !== null) {
      video.pause();
      video.currentTime = seekS;
    }
  }, [focus, seekS]);
  const highlighted = new Set(looked?.frameIndexes ?? []);

  const answered = targets.filter((t) => drafts[t.key]!.value !== null).length;
  /** Submitted and shown with the judge's values: where the reviewer agrees with the judge, target by target. */
  const compared =
    data.assignment.status === "done"
      ? targets.flatMap((t) => {
          const mine = drafts[t.key]!.value;
          return mine !== null && t.judge !== null && t.judge !== undefined
            ? [agreesWithJudge(declarationOf(task, t), t, mine, t.judge)]
            : [];
        })
      : [];
  const jumpTo = message?.jumpTo ? targets.findIndex((t) => t.key === message.jumpTo) : -1;
  const progress = liveProgress ?? data.progress;
  const percent = progress.items ? Math.round((100 * progress.complete) / progress.items) : 0;
  const frameByIndex = new Map(data.video.frames.map((f) => [f.index, f]));

  return (
    <div
      ref={screen}
      tabIndex={-1}
      className="flex flex-col gap-4 outline-none"
      data-testid="review-screen"
      data-item-id={data.item.id}
    >
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold tracking-tight">{data.queue.name}</h1>
        {data.queue.blind && (
          <span className="rounded bg-slate-800 px-2 py-0.5 text-xs text-white" data-testid="blind-badge">
            {data.blind ? "blind: judge values hidden until you submit" : "blind queue · submitted: judge values shown"}
          </span>
        )}
        <span className="text-sm text-slate-500" data-testid="item-position">
          your item {data.nav.index + 1} of {Math.max(data.nav.count, support.reached)} ·{" "}
          {data.assignment.status === "done" ? "submitted" : "not submitted yet"}
        </span>
        <a
          href={`/projects/${projectId}/queues/${queueId}`}
          className="ml-auto text-sm text-indigo-700 underline"
          data-testid="queue-overview-link"
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            void support.leaveTo(event.currentTarget.href);
          }}
        >
          queue overview
        </a>
      </div>
      <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="queue-progress">
        <div className="h-2 w-48 overflow-hidden rounded bg-slate-200" aria-hidden>
          <div className="h-full bg-emerald-500" style={{ width: `${percent}%` }} />
        </div>
        <span>
          {progress.complete} of {progress.items} items complete ({data.queue.reviewersPerItem} reviewer
          {data.queue.reviewersPerItem === 1 ? "" : "s"} each)
        </span>
        <span className="font-medium" data-testid="my-count">
          you: {progress.mine.done} submitted
        </span>
      </div>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_26rem]">
        {/* Pinned while the targets scroll: the player and the strip stay in view beside the form. */}
        <div
          className="flex min-w-0 flex-col gap-3 lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:self-start lg:overflow-y-auto"
          data-testid="pinned-video"
        >
          <p className="text-sm" data-testid="review-prompt">
            <span className="text-slate-500">Prompt: </span>
            {data.video.prompt ?? "—"} <span className="text-xs text-slate-500">({data.video.fileName})</span>
          </p>
          <VideoFramesViewer
            videoUrl={data.video.url}
            frames={data.video.frames}
            uniform={data.video.uniformFrames}
            playerRef={player}
            highlighted={highlighted}
            highlightLabel={looked?.label ?? null}
          />
          <SubjectViews item={data} blind={data.blind} />
        </div>

        <div className="flex flex-col gap-2">
          {hasGuidelines && (
            <section
              aria-label="Guidelines"
              className="rounded-md border border-amber-200 bg-amber-50/50 p-2"
              data-testid="review-guidelines"
              data-shown={support.guidelinesShown}
            >
              <p className="text-xs text-slate-600">
                <b>Guidelines</b> · <kbd className="font-mono font-semibold">g</kbd>{" "}
                {support.guidelinesShown ? "hides" : "shows"} them
              </p>
              {support.guidelinesShown && (
                <div className="mt-1 max-h-60 overflow-y-auto">
                  <Guidelines project={data.guidelines!.project} queue={data.guidelines!.queue} />
                </div>
              )}
            </section>
          )}
          {data.judgeSummary && task && (
            <p className="rounded bg-slate-50 p-2 text-xs text-slate-600" data-testid="judge-summary">
              Judge:{" "}
              {data.targets.some((t) => t.question) ? (
                <JudgeAnswersLine targets={data.targets} declarationOf={(t) => declarationOf(task, t)} />
              ) : (
                <MetricsLine task={task} values={summaryMetricValues(task, data.judgeSummary)} />
              )}
            </p>
          )}
          {presence.active ? presence.element : presence.summary}
          {revealing && (
            <p className="rounded bg-emerald-50 p-2 text-sm text-emerald-900" data-testid="reveal-summary">
              The judge&apos;s values are shown: you agree on {compared.filter(Boolean).length} of {compared.length}{" "}
              target{compared.length === 1 ? "" : "s"}.
            </p>
          )}
          <div
            className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 ${presence.active ? "hidden" : ""}`}
          >
            <span>
              {answered} of {targets.length} judged · click a value or type digits, j/k to move, Enter to submit, ? for
              help
            </span>
            <label className="flex items-center gap-1" title="Kept in this browser for every queue">
              <input
                type="checkbox"
                checked={support.digitAdvances}
                onChange={(event) => {
                  support.setDigitAdvances(event.target.checked);
                  // Back to the screen, so the keys work again (a checkbox with focus takes them).
                  event.currentTarget.blur();
                  screen.current?.focus();
                }}
                data-testid="digit-advances"
              />
              a score moves on to the next target
            </label>
          </div>
          <ol
            className={`flex max-h-[60vh] flex-col gap-1 overflow-y-auto ${presence.active ? "hidden" : ""}`}
            data-testid="targets"
          >
            {targets.map((target, index) => {
              const draft = drafts[target.key]!;
              const isFocused = index === focus;
              const declared = declarationOf(task, target);
              return (
                <li
                  key={target.key}
                  data-testid="target"
                  data-target-index={index}
                  data-focused={isFocused}
                  className={`rounded-md border p-2 text-sm ${isFocused ? `border-indigo-500 bg-indigo-50 ring-1 ring-indigo-400 ${ON_TINTED_ROW}` : "border-slate-200 bg-white"}`}
                >
                  <div className="flex items-center gap-3">
                    <span className="min-w-0 flex-1" data-testid="target-label">
                      {/* A question shows its words; an indexed category (a caption's key point 3) keeps its label, which carries its text. */}
                      {target.question ? (
                        <QuestionLabel label={target.label} question={target.question} />
                      ) : target.category !== null &&
                        declared &&
                        "scope" in declared &&
                        declared.id === target.category ? (
                        <>
                          <TaskCode task={task} code={target.category} />
                          {target.scopeIndex !== null && (
                            <span className="text-slate-600"> · {scopeLabel(declared.scope, target.scopeIndex)}</span>
                          )}
                        </>
                      ) : (
                        target.label
                      )}
                      {target.required && draft.value === null && (
                        <span className="ml-1 text-xs text-amber-700">needed</span>
                      )}
                    </span>
                    <span className="text-xs text-slate-500">you</span>
                    <span
                      className="w-10 text-right font-mono text-base font-semibold text-indigo-900"
                      data-testid="my-value"
                    >
                      {show(declared, draft.value)}
                    </span>
                    {draft.accepted && (
                      <span
                        className="rounded bg-amber-100 px-1 text-xs text-amber-900"
                        data-testid="accepted-mark"
                        title="The judge's value, taken with a / A"
                      >
                        accepted
                      </span>
                    )}
                    <span className="text-xs text-slate-500">judge</span>
                    {"judge" in target ? (
                      <span className="w-10 text-right font-mono text-slate-700" data-testid="judge-value">
                        {show(declared, target.judge)}
                      </span>
                    ) : (
                      <span
                        className="w-10 text-right text-xs text-slate-500"
                        data-testid="judge-hidden"
                        title="Blind queue: shown once you submit"
                      >
                        hidden
                      </span>
                    )}
                    {data.assignment.status === "done" &&
                      draft.value !== null &&
                      target.judge !== null &&
                      target.judge !== undefined && (
                        <AgreementMark agrees={agreesWithJudge(declared, target, draft.value, target.judge)} />
                      )}
                  </div>
                  <ScoreControls
                    choices={scoreChoices(declared, target)}
                    target={target}
                    label={target.label}
                    value={draft.value}
                    disabled={revealing}
                    onPick={(value) => clickValue(index, value)}
                    onType={(value) => {
                      setValue(target.key, value);
                      setFocus(index);
                    }}
                  />
                  {declared && (
                    <p
                      className={`mt-0.5 text-xs text-slate-500 ${isFocused ? "" : "truncate"}`}
                      title={declared.definition}
                      data-testid="target-definition"
                    >
                      {declared.definition}
                    </p>
                  )}
                  {isFocused && target.question && (
                    <QuestionFrames
                      frameIndexes={target.frameIndexes}
                      frames={data.video.frames}
                      note={target.question.framesNote}
                    />
                  )}
                  {isFocused && !target.question && target.frameIndexes.length > 0 && (
                    <div className="mt-1 flex gap-1" data-testid="target-frames">
                      {target.frameIndexes.map((i) => {
                        const frame = frameByIndex.get(i);
                        // eslint-disable-next-line @next/next/no-img-element
                        return frame ? (
                          <img
                            key={frame.id}
                            src={frame.url}
                            alt={`frame at ${frame.timestampS.toFixed(2)} s`}
                            className="h-14 rounded"
                          />
                        ) : null;
                      })}
                    </div>
                  )}
                  {(isFocused || draft.note) && (
                    <label className="mt-1 flex flex-col gap-0.5 text-xs text-slate-500">
                      <span>Note{isFocused ? " (m to write, Esc to leave)" : ""}</span>
                      <textarea
                        ref={(el) => {
                          if (el) noteRefs.current.set(target.key, el);
                          else noteRefs.current.delete(target.key);
                        }}
                        rows={isFocused ? 2 : 1}
                        value={draft.note}
                        onChange={(e) =>
                          setDrafts((d) => ({ ...d, [target.key]: { ...d[target.key]!, note: e.target.value } }))
                        }
                        onFocus={() => setFocus(index)}
                        className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-800"
                        data-testid="note-input"
                        maxLength={5000}
                      />
                    </label>
                  )}
                </li>
              );
            })}
          </ol>
          <div className="flex flex-wrap items-center gap-2">
            {revealing ? (
              <button
                type="button"
                onClick={goOnFromReveal}
                className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white"
                data-testid="reveal-next"
              >
                Next item (Enter)
              </button>
            ) : (
              <button
                type="button"
                onClick={() => void submit()}
                disabled={busy}
                className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
                data-testid="submit-item"
              >
                Submit (Enter)
              </button>
            )}
            <button
              type="button"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pressKey("[")}
              disabled={!data.nav.previousItemId}
              className="rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700 disabled:opacity-40"
              data-testid="previous-item"
            >
              ← previous
            </button>
            {!revealing && (
              <button
                type="button"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pressKey("]")}
                className="rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700"
                data-testid="next-item"
              >
                next →
              </button>
            )}
          </div>
          <p
            role="status"
            aria-live="polite"
            data-testid="status-message"
            className={`min-h-5 text-sm ${message?.tone === "error" ? "text-red-700" : "text-slate-600"}`}
          >
            {message?.text}{" "}
            {jumpTo >= 0 && (
              <button
                type="button"
                className="ml-1 rounded border border-red-300 bg-white px-2 py-0.5 text-xs text-red-800"
                onClick={() => setFocus(jumpTo)}
                data-testid="jump-to-missing"
              >
                Go to the first missing target ({targets[jumpTo]!.label})
              </button>
            )}
          </p>
        </div>
      </div>

      {task && <TargetLegend task={task} />}

      <section
        aria-label="Keyboard shortcuts"
        className="rounded-md border border-slate-200 bg-white p-3 text-xs text-slate-600"
        data-testid="shortcut-help"
      >
        <p>
          {shortcuts.map(([keys, what]) => `${keys} ${what.split(" (")[0]}`).join(" · ")} — press{" "}
          <kbd className="font-mono font-semibold">?</kbd> for details.
        </p>
      </section>
      <KeyListOverlay
        open={help}
        onClose={closeHelp}
        keys={[...shortcuts, ...(data.presence ? PRESENCE_SHORTCUTS : [])]}
        testId="shortcut-help-overlay"
      />
    </div>
  );
}

/** Whether the reviewer's value agrees with the judge's, once the judge's values are shown on a submitted item. */
function AgreementMark({ agrees }: { agrees: boolean }) {
  return (
    <span
      className={`rounded px-1 text-xs font-medium ${agrees ? "bg-emerald-100 text-emerald-900" : "bg-rose-100 text-rose-900"}`}
      data-testid="agreement"
      data-agrees={agrees}
      title={
        agrees
          ? "You and the judge agree (closer than the target's disagreement gap)"
          : "You and the judge disagree (at least the target's disagreement gap apart)"
      }
    >
      {agrees ? "agree" : "differ"}
    </span>
  );
}

/**
 * A target's values to click (a categorical scale's names, or each number of a short scale), or a number field for a
 * wide scale. The buttons keep the keyboard's focus where it was (a mouse-down does not move it), so keys go on working.
 */
function ScoreControls({
  choices,
  target,
  label,
  value,
  disabled,
  onPick,
  onType,
}: {
  choices: { value: number; label: string }[] | null;
  target: TargetView;
  label: string;
  value: number | null;
  disabled: boolean;
  onPick: (value: number) => void;
  onType: (value: number) => void;
}) {
  if (!choices)
    return (
      <label className="mt-1 flex items-center gap-2 text-xs text-slate-500">
        value ({target.min}–{target.max})
        <input
          type="number"
          min={target.min}
          max={target.max}
          value={value ?? ""}
          disabled={disabled}
          onChange={(event) => {
            const typedValue = event.target.valueAsNumber;
            if (Number.isFinite(typedValue) && typedValue >= target.min && typedValue <= target.max) onType(typedValue);
          }}
          className="w-20 rounded border border-slate-300 px-1 py-0.5 text-sm text-slate-800"
          data-testid="score-input"
        />
      </label>
    );
  return (
    <div
      className="mt-1 flex flex-wrap gap-1"
      role="group"
      aria-label={`${label}: your value`}
      data-testid="score-controls"
    >
      {choices.map((choice) => {
        const chosen = value === choice.value;
        return (
          <button
            key={choice.value}
            type="button"
            disabled={disabled}
            aria-pressed={chosen}
            aria-label={`${label}: ${choice.label}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(choice.value)}
            className={`min-w-7 rounded border px-1.5 py-0.5 font-mono text-xs disabled:opacity-60 ${chosen ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:border-indigo-400"}`}
            data-testid="score-button"
            data-value={choice.value}
          >
            {choice.label}
          </button>
        );
      })}
    </div>
  );
}
