/**
 * Python's `f"{x:.{digits}f}"` for the numbers VBench-2.0 writes into its prompts: correctly rounded, and an exact
 * tie (0.125 with two digits) goes to the even digit, where JavaScript's toFixed goes up ("0.13" against Python's
 * "0.12"). An 8 fps clip's frame at index 1 is at exactly 0.125 s, so the difference reaches real prompts.
 */
export function pythonFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return String(x);
  const rounded = x.toFixed(digits);
  // Only a value within a hair of a tie can be one; toFixed(100) is slow, so it is spelled out only then.
  const scaled = Math.abs(x) * 10 ** digits;
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) return rounded;
  // toFixed(100) spells the double's exact value (its binary fraction ends within 100 decimal places here).
  const exact = Math.abs(x).toFixed(100);
  const point = exact.indexOf(".");
  const rest = exact.slice(point + 1 + digits);
  if (!/^50*$/.test(rest)) return rounded;
  // An exact tie: toFixed rounded away from zero; Python keeps the even neighbour.
  const kept = exact.slice(0, point + 1 + digits).replace(/\.$/, "");
  const lastDigit = Number(kept[kept.length - 1]);
  if (lastDigit % 2 === 0) return (x < 0 && Number(kept) !== 0 ? "-" : "") + kept;
  return rounded;
}
