/**
 * TEST TOOL. The shape of a stand-in LLM rule, in a module of its own: the stub's rule list
 * (./stub-rules.ts) imports each task's rules, and those rules import only these types, so the
 * imports run one way (core ← task).
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
