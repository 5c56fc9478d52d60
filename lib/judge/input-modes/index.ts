import { z } from "zod";
import { INPUT_MODES, type InputMode } from "../../task-modules/input-mode";

/** The modes and their type are the pipeline contract's (lib/task-modules/input-mode.ts); the judge's pages and engine read them here. */
export { INPUT_MODES, type InputMode };

export const inputModeSchema = z.enum(INPUT_MODES);

/** The mode of endpoints and runs that never chose one: one picture per frame works with every vision endpoint. */
export const DEFAULT_INPUT_MODE: InputMode = "images";

/** One line per mode, for forms, docs and errors. */
export const INPUT_MODE_DESCRIPTIONS: Readonly<Record<InputMode, string>> = {
  images: "One image_url part per chosen frame (every vision endpoint takes this).",
  "video-frames":
    "The chosen frames as one video_url part (data:video/jpeg;base64, + the frames' JPEGs joined by commas) with their timing, as vLLM reads it.",
  "video-file":
    "The clip itself as one video_url part (an MP4 data URL or a short-lived signed URL of the app) with the sampling asked.",
};

/** The stored mode of an endpoint or run; text that is not a mode (an older or hand-edited row) reads as images. */
export function inputModeOf(stored: unknown): InputMode {
  const parsed = inputModeSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_INPUT_MODE;
}
