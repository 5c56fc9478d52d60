import { testColourOfDataUrl } from "./test-image-colour";
import type { StubRule } from "./stub-rule";

/**
 * TEST TOOL. The endpoint test's question (lib/judge/endpoints/endpoint-test.ts): the stub reads the colour of the
 * test image it was sent and names it in one word, as a vision model would; without an image it says it
 * sees none. (A model named "…text-only…" never gets here: the server refuses its images with a 400.)
 */
export const ENDPOINT_TEST_RULE: StubRule = {
  name: "endpoint-test",
  match: /^What colou?r is this image\? Answer in one word\.$/m,
  respond: (context) => {
    if (context.imageCount === 0) return "I can't see any image.";
    const colour = context.imageUrls.map(testColourOfDataUrl).find((found) => found !== null);
    if (!colour) return "Grey.";
    return `${colour[0]!.toUpperCase()}${colour.slice(1)}.`;
  },
};

/**
 * TEST TOOL. The endpoint probe's video question (lib/judge/endpoints/endpoint-probe-video.ts): the stub answers with the
 * number of frames it saw (the frames of a JPEG list, or those it sampled from a clip; ./stub-video.ts), as a
 * video model that counted them would.
 */
export const VIDEO_PROBE_RULE: StubRule = {
  name: "endpoint-video-probe",
  match: /^How many frames does this video have\? Answer with a number\.$/m,
  respond: (context) => String(context.imageCount),
};
