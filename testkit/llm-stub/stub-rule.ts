import { createHash } from "node:crypto";

/**
 * TEST TOOL. What a rule of the stand-in LLM is: which prompts it answers and how. A leaf module (it imports
 * no rule), so the task folders' rules (lib/tasks/<id>/stub-rules.ts) and the stub that composes them
 * (./stub-rules.ts) both import it without a cycle. Answers are derived from a hash of the prompt and images,
 * so they are stable across runs yet differ between videos.
 */
export interface StubRequestContext {
  /** All text parts of all messages, joined by newlines. */
  text: string;
  /** Number of image parts in the request. */
  imageCount: number;
  /** Stable pseudo-random integer in [0, n) for this request and a salt. */
  pick(n: number, salt?: string): number;
  /** True when the request asked for JSON (json_schema or json_object response_format). */
  wantsJson: boolean;
  /** The request's model name: simulated models differ by it (the QA rules read it; other rules ignore it). */
  model: string;
  /**
   * How many times this server answered the same model and text before (0 the first time): a real model
   * asked again answers anew, and the construction rules simulate that (lib/tasks/construction/stub-rules.ts).
   */
  seen: number;
  /** The request's image URLs (data: URLs as sent), for rules that read an image (the endpoint test's colour). */
  imageUrls: string[];
}

export interface StubRule {
  name: string;
  match: RegExp;
  respond(context: StubRequestContext): string;
}

export function makeContext(
  text: string,
  imageKeys: string[],
  wantsJson: boolean,
  model = "",
  seen = 0,
  imageUrls: string[] = [],
): StubRequestContext {
  const seed = createHash("sha256").update(text).update(imageKeys.join("|")).digest("hex");
  return {
    text,
    imageCount: imageKeys.length,
    wantsJson,
    model,
    seen,
    imageUrls,
    pick(n, salt = "") {
      const digest = createHash("sha256").update(seed).update(salt).digest();
      return digest.readUInt32BE(0) % n;
    },
  };
}
