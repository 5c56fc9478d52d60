/**
 * What a request shows the judge, decided once: the run's input mode picks its module (the modes are listed once, in
 * ./index.ts INPUT_MODES; inputModeModule is the one switch over them), which plans the request; the plan's own mode
 * (a video run's step may still go as images) then picks the module that sends, records and prices it. The engine's
 * request builder, the cost estimate, the call replay and the run's start all come here.
 */
import { ValidationError } from "../../errors";
import { capabilitiesOf, imageLimitOf, type EndpointCapabilities } from "../endpoints/endpoint-capabilities";
import type { ChatVideo } from "../calls/llm-client";
import { inputModeOf, type InputMode } from ".";
import { imagesMode } from "./images";
import { videoFramesMode } from "./video-frames";
import { videoFileMode } from "./video-file";
import type {
  InputModeModule,
  MediaCost,
  MediaPlan,
  MediaPricing,
  MediaReads,
  MediaRequest,
  RecordContext,
  RecordedCall,
} from "./media-plan";
import type { CallSaw } from "../calls/call-record";

/** The module of one input mode. */
function inputModeModule(mode: InputMode): InputModeModule {
  switch (mode) {
    case "images":
      return imagesMode;
    case "video-frames":
      return videoFramesMode;
    case "video-file":
      return videoFileMode;
    default: {
      const unknown: never = mode;
      throw new Error(`Unknown input mode ${String(unknown)}.`);
    }
  }
}

/**
 * What one request of a step shows: the step's own frames (the first `ownFrames` of its input) in the run's mode as
 * its module plans them, the rest and the template's examples as images after them, and one grid picture when the
 * images are more than the endpoint takes in a request.
 */
export function planRequestMedia(request: MediaRequest): MediaPlan {
  const { frames, ownFrames } = request.input;
  const ownCount = Math.min(ownFrames ?? frames.length, frames.length);
  const own = frames.slice(0, ownCount);
  const examples = [...frames.slice(ownCount), ...request.exampleFrames];
  const plan = inputModeModule(request.runMode).plan({ ...request, own, examples });
  const imageLimit = imageLimitOf(request.capabilities ?? null);
  return { ...plan, grid: !request.batch && imageLimit !== null && plan.imageFrames.length > imageLimit };
}

/** The planned request's video part; frames' data URLs and the clip are read only when a call goes out. */
export function requestVideoPart(plan: MediaPlan, read: MediaReads): Promise<ChatVideo | null> {
  return inputModeModule(plan.mode).videoPart(plan, read);
}

/** What the planned request's call rows keep of what it showed (lib/judge/calls/call-record.ts). */
export function sawOfPlan(plan: MediaPlan, context: RecordContext): CallSaw {
  return inputModeModule(plan.mode).saw(plan, context);
}

/** What the planned request shows, counted and priced by the endpoint's token rule. */
export function costOfPlan(plan: MediaPlan, pricing: MediaPricing): MediaCost {
  return inputModeModule(plan.mode).cost(plan, pricing);
}

/**
 * A line the prompt gets when the request shows the video as video: the task prompts (the user's, sent as written)
 * speak of "images" and "frames", which in a video part are the video's frames, and a model told so reads them as
 * one clip. None when the request shows images only.
 */
export function videoPartNote(plan: MediaPlan): string | null {
  return inputModeModule(plan.mode).note(plan);
}

/** The video part's identity in the response-cache key: what it shows and the timing or sampling it is sent with. */
export function videoCachePart(plan: MediaPlan, source: { fps: number | null; frameCount: number | null }): unknown {
  return inputModeModule(plan.mode).cachePart(plan, source);
}

/**
 * The most frames a step of a run in this mode should choose (`VideoContext.imageLimit`, which a task fits its frames
 * to), by the endpoint's probe: the image limit in `images`, the video part limit in `video-frames`, none in
 * `video-file`, whose clips the server samples.
 */
export function frameLimitOf(mode: InputMode, capabilities: EndpointCapabilities | null | undefined): number | null {
  return inputModeModule(mode).frameLimit(capabilities);
}

/**
 * The input mode a run is started in and keeps (`JudgeRun.inputMode`, part of its calls' cache keys): the one the
 * request names, else the endpoint's. A mode the endpoint's probe saw refused is a 400 with the endpoint's words,
 * before anything is queued; a mode never probed is tried (its calls then fail with the endpoint's own error).
 */
export function runInputMode(
  endpoint: { name: string; inputMode: string; capabilities: unknown },
  asked: InputMode | undefined,
): InputMode {
  const mode = asked ?? inputModeOf(endpoint.inputMode);
  const finding = capabilitiesOf(endpoint.capabilities)?.inputModes?.[mode];
  if (finding?.accepted === "no") {
    const said = finding.refusal ? ` It answered: "${finding.refusal}".` : "";
    throw new ValidationError(
      `Endpoint ${endpoint.name} refused ${mode} requests when it was probed.${said} Start the run in another input mode, or probe the endpoint again.`,
    );
  }
  return mode;
}

/** A call's plan as its record kept it: the frames that went in its video part, those that went as images, its clip. */
export function planOfRecord(recorded: RecordedCall): MediaPlan {
  const { saw, sent, frames, clip } = recorded;
  const videoFrames = frames.slice(0, sent.videoFrames);
  const imageFrames = frames.slice(sent.videoFrames);
  const clipPlan = saw.clip && clip ? { ref: clip, sampling: saw.clip.sampling, chosenFrames: [] } : null;
  return {
    mode: saw.mode,
    videoFrames,
    clip: clipPlan,
    imageFrames,
    ownImages: saw.mode === "images" ? imageFrames.length : 0,
    grid: sent.grid,
  };
}
