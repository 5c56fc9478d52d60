/**
 * Natural order of names and ids: runs of digits compare as numbers, so "clip-2" comes before "clip-10"
 * (plain string order gives 1, 10, 2, 5). Letters compare without case first; exact ties fall back to the
 * plain order, so the order is total and the same in every locale. Digit runs of any length compare
 * exactly (no parse to a float), so long numeric ids stay in order.
 */
const CHUNKS = /\d+|\D+/g;

function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, "");
  const y = b.replace(/^0+(?=\d)/, "");
  if (x.length !== y.length) return x.length - y.length;
  if (x !== y) return x < y ? -1 : 1;
  // "007" after "7": more leading zeros last, so equal numbers still have one order.
  return a.length - b.length;
}

export function naturalCompare(a: string, b: string): number {
  const left = a.match(CHUNKS) ?? [];
  const right = b.match(CHUNKS) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    const digits = /^\d/.test(x) && /^\d/.test(y);
    const order = digits
      ? compareDigits(x, y)
      : x.toLowerCase() < y.toLowerCase()
        ? -1
        : x.toLowerCase() > y.toLowerCase()
          ? 1
          : 0;
    if (order !== 0) return order;
  }
  if (left.length !== right.length) return left.length - right.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A copy of `values` in natural order of `key` (see naturalCompare). */
export function naturalSortBy<T>(values: readonly T[], key: (value: T) => string): T[] {
  return [...values].sort((a, b) => naturalCompare(key(a), key(b)));
}
