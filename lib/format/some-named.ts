/** The first `shown` names, joined with commas, then how many more there are: "a.mp4, b.mp4 and 7 more". For error messages that name what went wrong without listing thousands. */
export function someNamed(names: readonly string[], shown: number): string {
  return `${names.slice(0, shown).join(", ")}${names.length > shown ? ` and ${names.length - shown} more` : ""}`;
}
