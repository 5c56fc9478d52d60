/** Number formats the pairwise boards share (server and client): ratings as whole points, shares as percents. */
export const points = (value: number | null) => (value === null ? "–" : value.toFixed(0));
export const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(0)}%`);
export const decimal = (value: number | null, digits = 2) => (value === null ? "–" : value.toFixed(digits));
export const interval = (lower: number | null, upper: number | null, format: (v: number | null) => string) =>
  lower === null || upper === null ? "–" : `[${format(lower)}, ${format(upper)}]`;
