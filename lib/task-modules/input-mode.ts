/**
 * How a judge call shows a video to the model, as the pipeline contract names it (VideoContext.inputMode). An endpoint
 * has a mode (`JudgeEndpoint.inputMode`, found by its probe and editable), and a run fixes one at its start
 * (`JudgeRun.inputMode`, part of the response-cache key), so the same call in two modes is two different calls; what
 * each mode sends is lib/judge/input-modes'.
 */
export const INPUT_MODES = ["images", "video-frames", "video-file"] as const;

export type InputMode = (typeof INPUT_MODES)[number];
