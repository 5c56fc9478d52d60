/**
 * TEST TOOL: item set files for tests, written for the videos of testkit/testing/judge-fixtures.ts
 * (`Mechanics/A ball rolls down a ramp number <v>-0.mp4`); a task's own lines are in its folder.
 */
export const fixtureVideoName = (v: number) => `A ball rolls down a ramp number ${v}-0.mp4`;

export const encode = (text: string) => new TextEncoder().encode(text);
export const jsonlBytes = (...lines: unknown[]) =>
  encode(lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n");
