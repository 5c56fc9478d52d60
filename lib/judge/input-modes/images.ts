/**
 * The `images` input mode: one image part per frame, the step's own first, then its template's few-shot examples;
 * one grid picture of them all when they are more than the endpoint takes in one request. Every vision endpoint
 * takes it, and the video modes fall back to it for a step that cannot go as video.
 */
import { imageLimitOf } from "../endpoints/endpoint-capabilities";
import { sawOfFrames } from "../calls/call-record";
import type { InputModeModule, MediaCost, MediaPlan, MediaPricing, SplitRequest } from "./media-plan";

export function imagesPlan(request: Pick<SplitRequest, "own" | "examples">): MediaPlan {
  return {
    mode: "images",
    videoFrames: [],
    clip: null,
    imageFrames: [...request.own, ...request.examples],
    ownImages: request.own.length,
    grid: false,
  };
}

/** The image parts of any plan, priced: one picture of unknown size for a grid, else each frame at its size. */
export function picturesCost(plan: Pick<MediaPlan, "imageFrames" | "grid">, pricing: MediaPricing): MediaCost {
  const none = { images: 0, videoFrames: 0, videoSeconds: 0, tokens: 0 };
  if (plan.imageFrames.length === 0) return none;
  if (plan.grid) return { ...none, images: 1, tokens: pricing.rule.image(null) };
  const tokens = plan.imageFrames.reduce((total, frame) => total + pricing.rule.image(pricing.frameSize(frame)), 0);
  return { ...none, images: plan.imageFrames.length, tokens };
}

export const imagesMode: InputModeModule = {
  mode: "images",
  plan: imagesPlan,
  frameLimit: (capabilities) => imageLimitOf(capabilities ?? null),
  videoPart: async () => null,
  saw: (plan, context) =>
    sawOfFrames("images", plan.imageFrames, { fps: context.fps, frameTimesS: context.frameTimesS }, plan.ownImages),
  cost: picturesCost,
  note: () => null,
  cachePart: () => null,
};
