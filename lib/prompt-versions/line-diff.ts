/**
 * A line diff by longest common subsequence, for showing an edited prompt template against the shipped
 * one (no diff library is installed). Templates are at most a few hundred lines, so the quadratic table
 * is small; the common head and tail are taken off first, so a one-line edit costs next to nothing.
 */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
  /** 1-based line number in the old text (null for an added line). */
  oldLine: number | null;
  /** 1-based line number in the new text (null for a removed line). */
  newLine: number | null;
}

/** Lines differing beyond this many (after the common head and tail) are shown as all removed, then all added. */
const MAX_TABLE_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ kind: "same", text: a[i]!, oldLine: i + 1, newLine: i + 1 });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  out.push(...middleDiff(midA, midB, head));
  for (let k = tail; k > 0; k--) {
    const i = a.length - k;
    const j = b.length - k;
    out.push({ kind: "same", text: a[i]!, oldLine: i + 1, newLine: j + 1 });
  }
  return out;
}

function middleDiff(a: string[], b: string[], offset: number): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const removed = (i: number): DiffLine => ({ kind: "removed", text: a[i]!, oldLine: offset + i + 1, newLine: null });
  const added = (j: number): DiffLine => ({ kind: "added", text: b[j]!, oldLine: null, newLine: offset + j + 1 });
  if ((n + 1) * (m + 1) > MAX_TABLE_CELLS) return [...a.map((_, i) => removed(i)), ...b.map((_, j) => added(j))];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]!, oldLine: offset + i + 1, newLine: offset + j + 1 });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push(removed(i++));
    } else {
      out.push(added(j++));
    }
  }
  while (i < n) out.push(removed(i++));
  while (j < m) out.push(added(j++));
  return out;
}

/** How many lines were added and removed. */
export function diffStats(diff: readonly DiffLine[]): { added: number; removed: number } {
  return {
    added: diff.filter((l) => l.kind === "added").length,
    removed: diff.filter((l) => l.kind === "removed").length,
  };
}
