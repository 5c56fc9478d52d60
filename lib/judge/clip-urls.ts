/**
 * The app's short-lived signed URLs of a run's video clips: what a `video-file` request names instead of a data URL
 * when the clip would not fit the endpoint's largest body (lib/judge/engine/video-media.ts clipGoesByUrl). The
 * endpoint fetches the clip from the app's signed clip route, which checks the signature and the expiry.
 */

/**
 * A URL of the app from which an endpoint may fetch the video's clip for the run within `ttlS` seconds; null when
 * the app cannot hand one out (the request then carries the clip as a data URL).
 */
export function signedClipUrl(videoId: string, runId: string, ttlS: number): string | null {
  // The signed clip route and its signing are the route's own; until it signs, clips go as data URLs.
  void videoId;
  void runId;
  void ttlS;
  return null;
}
