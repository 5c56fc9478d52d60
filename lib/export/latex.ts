/**
 * LaTeX source for text from the data (model names, labels): the ten characters LaTeX treats specially
 * become commands that print them, so a name like "Gen_2 & co" neither breaks the table nor runs anything.
 */
const LATEX_SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
};

/** Text as LaTeX source that prints it verbatim. */
export function escapeLatex(text: string): string {
  return text.replace(/[\\&%$#_{}~^]/g, (c) => LATEX_SPECIALS[c]!);
}
