/**
 * What each key does on the item on screen. Keys come from the screen's key queue one render at a time; the state
 * they change (drafts, focus, digit chains) goes through the review reducer, and the rest (submitting, moving to
 * another item, help, guidelines, the player, notes) is done here.
 */
import { useEffect, type Dispatch, type RefObject } from "react";
import { subjectValueKeys } from "@/components/tasks/queue-views";
import type { usePresenceStep } from "@/components/queues/presence-step";
import { beginKey, type DeferredMove, type ReviewAction, type ReviewState } from "@/components/queues/review-state";
import type { ItemView, PendingKey, ScreenSupport, TargetView } from "@/components/queues/review-types";
import { declarationOf } from "@/components/queues/target-row";
import { useQueuedKeys } from "@/components/queues/use-key-queue";
import { DIGIT_CHAIN_MS } from "@/lib/queues/score-keys";
import { isYesNoScale, type TaskDeclaration } from "@/lib/task-modules/task-declaration";

/** Put in the key queue by the screen itself when a digit's wait for a second digit is over: the focus moves on then. */
const ADVANCE_KEY = "@advance";
/** Keys that look around a revealed item (after a blind submit); any other key goes on to the next item. */
const REVEAL_LOOK_KEY = /^(?:[jkg?[ ]|Escape|Arrow(?:Up|Down|Left))$/;

export interface ItemKeysInput {
  data: ItemView;
  task: TaskDeclaration | null;
  support: ScreenSupport;
  state: ReviewState;
  dispatch: Dispatch<ReviewAction>;
  /** The targets asked (presence-first: only those of categories someone says are present). */
  targets: TargetView[];
  /** A blind item just submitted, shown with the judge's values until the reviewer goes on to `revealedNext`. */
  revealing: boolean;
  revealedNext: string | null;
  presence: ReturnType<typeof usePresenceStep>;
  hasGuidelines: boolean;
  noteRefs: RefObject<Map<string, HTMLTextAreaElement>>;
  setHelp: (update: (shown: boolean) => boolean) => void;
  leaveFor: (itemId: string) => void;
  goNext: () => Promise<void>;
  submit: () => Promise<void>;
}

/** Applies the queued keys to the item on screen; returns `press`, for a button that does what a key does. */
export function useItemKeys(input: ItemKeysInput): (key: string) => void {
  const { data, support, state, dispatch, targets } = input;
  const count = targets.length;
  const say = (text: string, tone: "info" | "error") => dispatch({ type: "message", message: { text, tone } });

  const accept = (chosen: TargetView[]) => {
    if (data.blind)
      return say(
        "Blind queue: the judge's values are hidden until you submit, so there is nothing to accept.",
        "error",
      );
    const withJudge = chosen.filter((t) => t.judge !== null && t.judge !== undefined);
    if (withJudge.length === 0) return say("The judge gave no value here.", "error");
    dispatch({ type: "accept", values: withJudge.map((t) => ({ key: t.key, value: t.judge! })) });
    say(
      withJudge.length === 1
        ? `Accepted the judge's value for ${withJudge[0]!.label}.`
        : `Accepted ${withJudge.length} judge values.`,
      "info",
    );
  };

  /** Keys that act on the screen or the item as a whole; false: the key is for the focused target. */
  const applyScreenKey = (key: string): boolean => {
    if (key === "?") input.setHelp((h) => !h);
    else if (input.presence.handleKey(key)) return true;
    else if (key === "Escape") input.setHelp(() => false);
    else if (key === "g") {
      if (!input.hasGuidelines) say("This project and queue have no guidelines.", "info");
      else support.toggleGuidelines();
    } else if (key === "j" || key === "ArrowDown") dispatch({ type: "step", by: 1, count });
    else if (key === "k" || key === "ArrowUp") dispatch({ type: "step", by: -1, count });
    else if (key === "]" || key === "ArrowRight") void input.goNext();
    else if (key === "[" || key === "ArrowLeft") {
      if (data.nav.previousItemId) input.leaveFor(data.nav.previousItemId);
      else say("This is your first item in this queue.", "info");
    } else if (key === "Enter") void input.submit();
    else if (key === " ") {
      const player = document.querySelector<HTMLVideoElement>('[data-testid="player"]');
      if (player) {
        if (player.paused) void player.play().catch(() => {});
        else player.pause();
      }
    } else if (key === "A") accept(targets);
    else return false;
    return true;
  };

  /** Keys for the focused target: accept, note, yes / no, a subject view's key pair, digits. */
  const applyTargetKey = (key: string, timeStamp: number, focused: TargetView, deferred: DeferredMove | null) => {
    if (key === "a") return accept([focused]);
    // The note field is always rendered for the focused target.
    if (key === "m") return void input.noteRefs.current.get(focused.key)?.focus();
    const verdict = targets.find((t) => t.kind === "verdict");
    if ((key === "y" || key === "n") && verdict)
      return dispatch({ type: "set", key: verdict.key, value: key === "y" ? 1 : 0, focus: targets.indexOf(verdict) });
    // Without a verdict, y / n answer the focused yes/no question (as 1 / 0 do), moving on as a digit does.
    const declaredScale = declarationOf(input.task, focused)?.scale;
    if ((key === "y" || key === "n") && declaredScale && isYesNoScale(declaredScale))
      return dispatch({
        type: "set",
        key: focused.key,
        value: key === "y" ? 1 : 0,
        endsChain: true,
        ...(support.digitAdvances ? { moveOnOf: count } : {}),
      });
    // A key pair the item's subject view declares (its task's views) sets that target to 1 or 0.
    for (const [subjectKey, keys] of Object.entries(subjectValueKeys())) {
      if ((key !== keys.one && key !== keys.zero) || !data[subjectKey]) continue;
      const target = data.targets.find((t) => t.category === keys.category);
      if (!target) continue;
      const value = key === keys.one ? 1 : 0;
      return dispatch({ type: "set", key: target.key, value, focus: data.targets.indexOf(target) });
    }
    if (/^[0-9]$/.test(key))
      dispatch({
        type: "digit",
        digit: Number(key),
        timeStamp,
        deferred,
        targets,
        digitAdvances: support.digitAdvances,
      });
  };

  const applyKey = (pressed: PendingKey) => {
    const { key, timeStamp } = pressed;
    if (key === ADVANCE_KEY) return dispatch({ type: "advance", at: timeStamp, count });
    // A revealed item is for looking: j/k, help, guidelines, the player and ← stay here; Enter, ] and → go on, and
    // any other key goes on and applies to the next item (typed straight after Enter, it was meant for that one).
    if (input.revealing && !REVEAL_LOOK_KEY.test(key)) {
      if (key !== "Enter" && key !== "]" && key !== "ArrowRight") support.pending.current.unshift(pressed);
      if (input.revealedNext) input.leaveFor(input.revealedNext);
      return;
    }
    const begun = beginKey(state, key, timeStamp, count);
    dispatch({ type: "begin", key, timeStamp, count });
    if (begun.justMoved && (key === "j" || key === "ArrowDown")) return;
    if (applyScreenKey(key)) return;
    const focused = targets[state.focus];
    if (focused) applyTargetKey(key, timeStamp, focused, begun.deferred);
  };

  const press = useQueuedKeys(support, data.item.id, input.revealing, applyKey);
  // "A score moves on": once no second digit has come within the chain window, the deferred move is queued as a key.
  const deferred = state.deferred;
  useEffect(() => {
    if (!deferred) return;
    const timer = setTimeout(() => press(ADVANCE_KEY, deferred.at), DIGIT_CHAIN_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one timer per deferred move
  }, [deferred]);
  return press;
}
