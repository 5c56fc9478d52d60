/**
 * The first `shown` names, joined with commas, then how many more there are: "a.mp4, b.mp4 and 7 more". For error
 * messages that name what went wrong without listing thousands. With `maxChars`, a longer name keeps its start and
 * its end around an ellipsis (VBench-2.0 names are 180-character prompts; the start says which prompt, the end which
 * sample).
 */
export function someNamed(names: readonly string[], shown: number, maxChars?: number): string {
  const shorten = (name: string) =>
    maxChars === undefined || name.length <= maxChars
      ? name
      : `${name.slice(0, maxChars - 12).trimEnd()}…${name.slice(-11)}`;
  return `${names.slice(0, shown).map(shorten).join(", ")}${names.length > shown ? ` and ${names.length - shown} more` : ""}`;
}
