/**
 * TEST TOOL. The state one stub LLM server keeps (stub-types.ts, StubState), made once per server and handed to
 * every route handler: nothing of it is shared between servers.
 */
import { defaultStubRules } from "./stub-rules";
import type { StubServerOptions, StubState } from "./stub-types";
import { stubVideoOptionsSchema } from "./stub-video";

export function createStubState(options: StubServerOptions): StubState {
  return {
    options,
    // The task folders' rules, unless the caller gives its own.
    rules: () => options.rules ?? defaultStubRules(),
    log: options.log ?? (() => {}),
    faults: [],
    requests: [],
    hanging: new Set(),
    batchOptions: { completionDelayMs: 2000, failedShare: 0, ...options.batch },
    videoOptions: stubVideoOptionsSchema.parse(options.video ?? {}),
    files: new Map(),
    batches: new Map(),
    batchLines: [],
    answered: new Map(),
  };
}

/** Video parts taken again as the server was started (its `video` option): a reset forgets later changes. */
export function resetVideoOptions(state: StubState): void {
  Object.assign(state.videoOptions, stubVideoOptionsSchema.parse(state.options.video ?? {}));
}

/** How many times this server answered the same model and text before (0 the first time), counting this one. */
export function timesSeen(state: StubState, model: string, text: string): number {
  const key = `${model}\n${text}`;
  const seen = state.answered.get(key) ?? 0;
  state.answered.set(key, seen + 1);
  return seen;
}
