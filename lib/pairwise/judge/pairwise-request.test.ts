import { describe, expect, it } from "vitest";
import type { ClipRef } from "../../task-modules/pipeline-types";
import { clipDataUrlBytes } from "../../judge/media/video-parts";
import { pairShowing } from "./pairwise-request";

/*
 * What a pairwise question shows, decided once: the two files only in a video-file run, only when both videos have
 * one and both go as data URLs in one body the endpoint takes; pictures otherwise.
 */
const clip = (sizeBytes: number, sha = "a"): ClipRef => ({
  storageKey: `videos/${sha}.mp4`,
  sha256: sha.repeat(64),
  sizeBytes,
  contentType: "video/mp4",
  durationS: 2,
});
const question = (inputMode: "images" | "video-file", a: ClipRef | null, b: ClipRef | null) => ({
  inputMode,
  first: { clip: a },
  second: { clip: b },
});

describe("pairShowing", () => {
  it("sends the two files in a video-file run, pictures in an images run", () => {
    const [a, b] = [clip(1000, "a"), clip(2000, "b")];
    expect(pairShowing(question("video-file", a, b), { capabilities: null })).toEqual({
      as: "clips",
      first: a,
      second: b,
    });
    expect(pairShowing(question("images", a, b), { capabilities: null })).toEqual({ as: "images" });
  });

  it("sends pictures for a video without a file (a honeypot's broken copy, a deleted video)", () => {
    expect(pairShowing(question("video-file", clip(1000), null), { capabilities: null })).toEqual({ as: "images" });
    expect(pairShowing(question("video-file", null, clip(1000)), { capabilities: null })).toEqual({ as: "images" });
  });

  it("sends pictures when the two data URLs together pass the endpoint's largest body, though each alone fits", () => {
    const [a, b] = [clip(6000, "a"), clip(6000, "b")];
    const one = clipDataUrlBytes(6000);
    expect(pairShowing(question("video-file", a, b), { capabilities: { maxBodyBytes: 2 * one } }).as).toBe("clips");
    expect(pairShowing(question("video-file", a, b), { capabilities: { maxBodyBytes: 2 * one - 1 } }).as).toBe(
      "images",
    );
  });

  it("sends pictures to an endpoint that takes clips by URL only (a pair's clips go as data)", () => {
    const byUrlOnly = { inputModes: { "video-file": { byUrl: "yes", maxBodyBytes: null } } };
    expect(pairShowing(question("video-file", clip(10), clip(10, "b")), { capabilities: byUrlOnly }).as).toBe("images");
  });
});
