/**
 * The frame on screen, outside React state: the player writes it as each frame is presented and the timeline's
 * playhead, the frame counter and the box overlay read it and move their own DOM nodes, so playing and scrubbing
 * re-render nothing. One per span editor (made in a ref), never shared between screens.
 */
export interface Playhead {
  /** The frame presented (or asked for, while a seek is on its way). */
  frame: number;
  /** Frames a key asked to step to before the player caught up: `,` `,` `,` steps three frames. */
  target: number | null;
  paused: boolean;
  set(frame: number): void;
  setPaused(paused: boolean): void;
  subscribe(listener: (frame: number) => void): () => void;
}

export function createPlayhead(): Playhead {
  const listeners = new Set<(frame: number) => void>();
  const playhead: Playhead = {
    frame: 0,
    target: null,
    paused: true,
    set(frame) {
      if (frame === playhead.frame) return;
      playhead.frame = frame;
      for (const listener of listeners) listener(frame);
    },
    setPaused(paused) {
      if (paused === playhead.paused) return;
      playhead.paused = paused;
      for (const listener of listeners) listener(playhead.frame);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return playhead;
}
