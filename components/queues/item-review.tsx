"use client";

/**
 * One item on the review screen: the video and its frames pinned beside the targets, the reviewer's values and notes,
 * the judge's (unless blind), and the keys that act on them. Mounted afresh for each item (and each read of it); the
 * screen around it keeps what outlives an item (the key queue, claims ahead, background submissions).
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type Dispatch,
  type RefObject,
} from "react";
import { JudgeAnswersLine, questionFocus } from "@/components/queues/target-question";
import { MetricsLine, TargetLegend } from "@/components/tasks/target-legend";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { clearPresenceDraft, readPresenceDraft, writePresenceDraft } from "@/components/queues/presence-draft";
import { PRESENCE_SHORTCUTS, usePresenceStep } from "@/components/queues/presence-step";
import {
  GuidelinesPanel,
  ItemActions,
  ItemHeader,
  PinnedVideo,
  ReviewPrompt,
  reviewShortcuts,
  ShortcutBar,
  StatusLine,
  TargetsHeading,
} from "@/components/queues/item-review-parts";
import {
  initialReviewState,
  reviewReducer,
  type ReviewAction,
  type ReviewState,
} from "@/components/queues/review-state";
import type { Draft, ItemView, ScreenSupport, TargetView, UnsentWork } from "@/components/queues/review-types";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { agreesWithJudge, declarationOf, TargetRow } from "@/components/queues/target-row";
import { useItemClaimAhead } from "@/components/queues/use-claim-ahead";
import { useItemKeys } from "@/components/queues/use-item-keys";
import { useItemSubmit } from "@/components/queues/use-item-submit";
import { LOCALIZE_SHORTCUTS, useLocalizeStep } from "@/components/queues/localize-step";
import { scopeFocus } from "@/lib/judge/media/frame-scopes";
import type { TaskDeclaration } from "@/lib/task-modules/task-declaration";
import { summaryMetricValues } from "@/lib/task-modules/task-display";

/** The item's review state (focus, drafts, message), opened on the unsent drafts restored and the finished note. */
function useItemReviewState(
  data: ItemView,
  support: ScreenSupport,
  restored: UnsentWork | null,
): [ReviewState, Dispatch<ReviewAction>] {
  return useReducer(reviewReducer, null, () => {
    const finished = support.finishedText(data.item.id);
    return initialReviewState(
      data.targets,
      restored?.drafts ?? null,
      finished ? { text: finished, tone: "info" } : null,
    );
  });
}

/**
 * The reveal of a blind item just submitted: whether it shows with the judge's values, the item that follows it and
 * going on there; a reveal withheld (its video stays blind) goes on at once.
 */
function useItemReveal(data: ItemView, support: ScreenSupport, leaveFor: (itemId: string) => void) {
  const revealedNext = support.revealedNext(data.item.id);
  /** A blind item just submitted, shown with the judge's values until the reviewer goes on to `revealedNext`. */
  const revealing = revealedNext !== null && data.assignment.status === "done" && !data.blind;
  /** Submitted, but its video stays blind (another item of it waits for the reviewer): nothing to show, so go on. */
  const revealWithheld = revealedNext !== null && data.assignment.status === "done" && data.blind;
  useEffect(() => {
    if (revealWithheld) leaveFor(revealedNext);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the submitted item is read back
  }, []);
  const goOn = () => {
    if (revealedNext) leaveFor(revealedNext);
  };
  return { revealedNext, revealing, goOn };
}

/** One item on the review screen: the video beside its targets, the reviewer's values, the judge's, and the keys. */
export function ItemReview({
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
  const [state, dispatch] = useItemReviewState(data, support, restored);
  const { focus, drafts, message } = state;
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);
  const noteRefs = useRef(new Map<string, HTMLTextAreaElement>());
  const screen = useRef<HTMLDivElement>(null);
  const draftKey = support.draftKey(data.item.id);
  const presence = useItemPresence(data, restored, draftKey);
  // Presence-first: only the targets of categories someone says are present are asked.
  const targets = data.targets.filter((t) => presence.isAsked(t.key));
  const focused = targets[focus];
  const hasGuidelines = Boolean(data.guidelines?.project || data.guidelines?.queue);
  const { aheadId, firstAhead } = useItemClaimAhead(data, support.aheadOf);
  const player = useRef<HTMLVideoElement>(null);
  const where = useLocalizeStep({ data, task, focused, player, userId: support.userId, present: presence.answers() });
  const { submit, goNext, busy, leaveFor } = useItemSubmit({
    data,
    targets,
    drafts,
    dispatch,
    support,
    presence,
    draftKey,
    aheadId,
    firstAhead,
    spansMissing: where.spansMissing,
  });

  const { revealedNext, revealing, goOn: goOnFromReveal } = useItemReveal(data, support, leaveFor);

  const { reach } = support;
  useEffect(() => reach(data.nav.index + 1), [data.nav.index, reach]);

  /**
   * A value for the target at `index`, from a click on one of its values: the same as typing it (the focus goes there,
   * or on to the next target with "a score moves on").
   */
  const clickValue = (index: number, value: number) => {
    if (support.holdOn.current === data.item.id || revealing) return;
    dispatch({ type: "click", index, value, targets, digitAdvances: support.digitAdvances });
  };
  const pressKey = useItemKeys({
    ...{ data, task, support, state, dispatch, targets, revealing, revealedNext, presence, hasGuidelines },
    ...{ noteRefs, setHelp, leaveFor, goNext, submit },
  });

  const looked = useJudgeLook(data, focus, focused, player, task);

  return (
    <div
      ref={screen}
      tabIndex={-1}
      className="flex flex-col gap-4 outline-none"
      data-testid="review-screen"
      data-item-id={data.item.id}
    >
      <ItemHeader projectId={projectId} data={data} support={support} progress={liveProgress ?? data.progress} />
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <PinnedVideo data={data} playerRef={player} looked={looked} player={where.workbench} />
        <div className="flex flex-col gap-2">
          {where.workbench && <ReviewPrompt video={data.video} />}
          {hasGuidelines && <GuidelinesPanel guidelines={data.guidelines!} shown={support.guidelinesShown} />}
          <JudgeSummary data={data} task={task} />
          {presence.active ? presence.element : presence.summary}
          {where.line}
          {revealing && <RevealSummary task={task} targets={targets} drafts={drafts} />}
          <TargetsHeading
            hidden={presence.active}
            answered={targets.filter((t) => drafts[t.key]!.value !== null).length}
            count={targets.length}
            support={support}
            screen={screen}
          />
          <TargetList
            {...{ task, targets, state, dispatch, revealing, noteRefs }}
            hidden={presence.active}
            submitted={data.assignment.status === "done"}
            frames={data.video.frames}
            onPick={clickValue}
          />
          <ItemActions
            revealing={revealing}
            busy={busy}
            hasPrevious={Boolean(data.nav.previousItemId)}
            onGoOn={goOnFromReveal}
            onSubmit={() => void submit()}
            pressKey={pressKey}
          />
          <StatusLine message={message} targets={targets} onJump={(index) => dispatch({ type: "focus", index })} />
        </div>
      </div>

      <ItemKeys data={data} task={task} help={help} onClose={closeHelp} />
    </div>
  );
}

/** The task's legend, the shortcut bar and the help overlay (`?`): the screen's keys, the presence step's, the timeline's. */
function ItemKeys({
  data,
  task,
  help,
  onClose,
}: {
  data: ItemView;
  task: TaskDeclaration | null;
  help: boolean;
  onClose: () => void;
}) {
  const shortcuts = reviewShortcuts(useTaskCatalogue());
  return (
    <>
      {task && <TargetLegend task={task} />}
      <ShortcutBar shortcuts={shortcuts} />
      <KeyListOverlay
        open={help}
        onClose={onClose}
        keys={[
          ...shortcuts,
          ...(data.presence ? PRESENCE_SHORTCUTS : []),
          ...(data.localize ? LOCALIZE_SHORTCUTS : []),
        ]}
        testId="shortcut-help-overlay"
      />
    </>
  );
}

/**
 * The item's presence step (presence-first queues). Toggles typed and not submitted are kept in the browser until the
 * item is submitted (a reload keeps them); a submission that failed in the background brings its answers back.
 */
function useItemPresence(data: ItemView, restored: UnsentWork | null, draftKey: string) {
  const [presenceDraft] = useState(() =>
    data.presence && typeof window !== "undefined" ? readPresenceDraft(draftKey) : null,
  );
  const presence = usePresenceStep(
    data.presence,
    data.targets.map((t) => t.key),
    restored?.present ?? null,
    presenceDraft,
  );
  const presenceAnswers = JSON.stringify(presence.answers());
  const presenceChanged = presence.changed;
  // Written before the toggle is painted, not after: a reload right after a toggle shows on screen must keep it
  // (with an effect after paint, a reload on a loaded machine came first and the draft lacked the last toggle).
  useLayoutEffect(() => {
    if (!data.presence) return;
    if (presenceChanged) writePresenceDraft(draftKey, JSON.parse(presenceAnswers) as Record<string, boolean>);
    else clearPresenceDraft(draftKey);
  }, [data.presence, draftKey, presenceAnswers, presenceChanged]);
  return presence;
}

/**
 * Where the judge looked for the focused target (a question's frames, or the frames of the step's scope that gave the
 * score): the player seeks there and the strip lights those frames. The focused row is scrolled into view.
 */
function useJudgeLook(
  data: ItemView,
  focus: number,
  focused: TargetView | undefined,
  player: RefObject<HTMLVideoElement | null>,
  task: TaskDeclaration | null,
) {
  const looked = focused?.question
    ? questionFocus(data.video.frames, focused.frameIndexes)
    : focused?.stepId && focused.scopeIndex !== null && focused.frameIndexes.length > 0
      ? scopeFocus(data.video.frames, focused.stepId, focused.scopeIndex, task ?? undefined)
      : null;
  const seekS = looked?.seekS ?? null;
  useEffect(() => {
    document.querySelector(`[data-target-index="${focus}"]`)?.scrollIntoView({ block: "nearest" });
    const video = player.current;
    if (video && seekS !== null) {
      video.pause();
      video.currentTime = seekS;
    }
  }, [focus, seekS, player]);
  return looked;
}

/** The judge's answers or per-video metrics above the targets (absent while blind). */
function JudgeSummary({ data, task }: { data: ItemView; task: TaskDeclaration | null }) {
  if (!data.judgeSummary || !task) return null;
  return (
    <p className="rounded bg-slate-50 p-2 text-xs text-slate-600" data-testid="judge-summary">
      Judge:{" "}
      {data.targets.some((t) => t.question) ? (
        <JudgeAnswersLine targets={data.targets} declarationOf={(t) => declarationOf(task, t)} />
      ) : (
        <MetricsLine task={task} values={summaryMetricValues(task, data.judgeSummary)} />
      )}
    </p>
  );
}

/** On a revealed item: on how many targets the reviewer and the judge agree. */
function RevealSummary({
  task,
  targets,
  drafts,
}: {
  task: TaskDeclaration | null;
  targets: TargetView[];
  drafts: Record<string, Draft>;
}) {
  const compared = targets.flatMap((t) => {
    const mine = drafts[t.key]!.value;
    return mine !== null && t.judge !== null && t.judge !== undefined
      ? [agreesWithJudge(declarationOf(task, t), t, mine, t.judge)]
      : [];
  });
  return (
    <p className="rounded bg-emerald-50 p-2 text-sm text-emerald-900" data-testid="reveal-summary">
      The judge&apos;s values are shown: you agree on {compared.filter(Boolean).length} of {compared.length} target
      {compared.length === 1 ? "" : "s"}.
    </p>
  );
}

/** The targets asked, one row each; a row's changes go through the review reducer. */
function TargetList({
  task,
  targets,
  state,
  dispatch,
  hidden,
  revealing,
  submitted,
  frames,
  noteRefs,
  onPick,
}: {
  task: TaskDeclaration | null;
  targets: TargetView[];
  state: ReviewState;
  dispatch: Dispatch<ReviewAction>;
  /** The presence step is on screen: the targets wait. */
  hidden: boolean;
  revealing: boolean;
  submitted: boolean;
  frames: ItemView["video"]["frames"];
  noteRefs: RefObject<Map<string, HTMLTextAreaElement>>;
  onPick: (index: number, value: number) => void;
}) {
  return (
    <ol className={`flex max-h-[60vh] flex-col gap-1 overflow-y-auto ${hidden ? "hidden" : ""}`} data-testid="targets">
      {targets.map((target, index) => (
        <TargetRow
          key={target.key}
          task={task}
          target={target}
          index={index}
          draft={state.drafts[target.key]!}
          isFocused={index === state.focus}
          revealing={revealing}
          submitted={submitted}
          frames={frames}
          noteRefs={noteRefs}
          onPick={onPick}
          onType={(i, value) => dispatch({ type: "set", key: targets[i]!.key, value, focus: i })}
          onNote={(key, note) => dispatch({ type: "note", key, note })}
          onFocus={(i) => dispatch({ type: "focus", index: i })}
        />
      ))}
    </ol>
  );
}
