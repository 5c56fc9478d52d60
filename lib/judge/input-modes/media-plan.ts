/**
 * What one request shows the judge, and the contract each input mode's module fulfils (./images.ts,
 * ./video-frames.ts, ./video-file.ts). ./plan-request-media.ts picks the module and is what the engine, the cost
 * estimate and the call replay call.
 */
import type { InputMode } from ".";
import type { ChatVideo } from "../calls/llm-client";
import type { CallSaw, ClipSampling, SentShape } from "../calls/call-record";
import type { EndpointCapabilities } from "../endpoints/endpoint-capabilities";
import type { FrameSize, ResolvedTokenRule } from "../endpoints/token-rules";
import type { ClipRef, FrameRef, StepInput, StepScope, VideoContext } from "../../task-modules/pipeline-types";

/** What one request shows: the mode it uses, the frames in its video part or the clip, and the frames sent as images. */
export interface MediaPlan {
  /** The form of this request: `images` when its frames go as images even in a video run. */
  mode: InputMode;
  /** The frames of the video part (`video-frames` form), in order; none otherwise. */
  videoFrames: FrameRef[];
  /**
   * The clip (`video-file` form), the sampling asked, and the step's own frames the sampling stands for (their sizes
   * price the frames the server samples); null otherwise.
   */
  clip: { ref: ClipRef; sampling: ClipSampling; chosenFrames: FrameRef[] } | null;
  /** The frames sent as image parts, after any video part: the step's own first, then its template's examples. */
  imageFrames: FrameRef[];
  /** How many of `imageFrames` are the step's own (the rest are few-shot examples of other videos). */
  ownImages: number;
  /** The image frames go as one grid picture: more than the endpoint takes in one request (never in a batch line). */
  grid: boolean;
}

/** What decides a request's media: the run's mode, the step, its frames and the endpoint's probe. */
export interface MediaRequest {
  runMode: InputMode;
  scope: StepScope;
  input: Pick<StepInput, "frames" | "sendAs" | "ownFrames">;
  /** The template's few-shot example frames, which follow as images. */
  exampleFrames: FrameRef[];
  clip: ClipRef | null;
  /** The request goes in a batch line (OpenAI's Batch API): pictures only, never a grid. */
  batch: boolean;
  /** The probe's findings of the endpoint the step calls: its image and video part limits. */
  capabilities: EndpointCapabilities | null | undefined;
}

/** A request as a mode's module plans it: the step's own frames apart from those that follow as images. */
export interface SplitRequest extends MediaRequest {
  own: FrameRef[];
  examples: FrameRef[];
}

/** What the frames of a planned request cost by the endpoint's token rule, and what it shows, counted. */
export interface MediaCost {
  images: number;
  videoFrames: number;
  videoSeconds: number;
  tokens: number;
}

export interface MediaPricing {
  rule: ResolvedTokenRule;
  frameSize(frame: FrameRef): FrameSize | null;
  context: Pick<VideoContext, "fps" | "frameCount">;
}

/** How a planned request's video part is read when its call goes out (frames and the clip are read only then). */
export interface MediaReads {
  frameUrl(frame: FrameRef): Promise<string>;
  /** The clip's bytes in base64. */
  clipBase64(clip: ClipRef): Promise<string>;
  /** The clip's short-lived URL, when it goes by URL; null: it goes as a data URL. */
  clipUrl(clip: ClipRef): string | null;
  source: { fps: number | null; frameCount: number | null; frameTimesS?: readonly number[] | null };
  /** Each video frame's index in the source as a call's record names it (a replay); absent: from the source's clock. */
  recordedVideoFrames?: readonly (number | null | undefined)[];
}

/** The judged video as a call record describes it. */
export type RecordContext = Pick<VideoContext, "fps" | "frameCount" | "frameTimesS">;

/** One input mode: how it plans a request, sends its part, records and prices it, and what the probe limits of it. */
export interface InputModeModule {
  mode: InputMode;
  /** The request in this run mode: this mode's form, or another's when the step cannot go so. */
  plan(request: SplitRequest): MediaPlan;
  /** The most frames a step of a run in this mode should choose, by the endpoint's probe; null: no limit. */
  frameLimit(capabilities: EndpointCapabilities | null | undefined): number | null;
  /** A plan of this form: its video part (none for pictures only). */
  videoPart(plan: MediaPlan, read: MediaReads): Promise<ChatVideo | null>;
  /** A plan of this form: what its call rows keep of what it showed. */
  saw(plan: MediaPlan, context: RecordContext): CallSaw;
  /** A plan of this form: what it shows, counted and priced. */
  cost(plan: MediaPlan, pricing: MediaPricing): MediaCost;
  /** A plan of this form: the line the prompt gets about its video part; null when it shows pictures only. */
  note(plan: MediaPlan): string | null;
  /** A plan of this form: its video part's identity in the response-cache key; null without one. */
  cachePart(plan: MediaPlan, source: { fps: number | null; frameCount: number | null }): unknown;
}

/** A call's record as the replay reads it back into a plan. */
export interface RecordedCall {
  saw: CallSaw;
  sent: SentShape;
  /** The frames the call sent, in the record's order. */
  frames: FrameRef[];
  clip: ClipRef | null;
}

/** Whether a step's own frames may go as video at all: a video run, no batch line, no stills asked, two or more. */
export function mayGoAsVideo(request: SplitRequest): boolean {
  return request.runMode !== "images" && !request.batch && request.input.sendAs !== "images" && request.own.length >= 2;
}
