/**
 * Input the statistics cannot be computed from at all (mismatched lengths, a duplicate rating, a malformed
 * CSV line). A statistic that is merely undefined for valid input (no variance, no pairable ratings) is
 * `null` instead, so callers can tell "your data is wrong" from "your data does not support this number".
 */
export class StatsInputError extends Error {
  constructor(
    message: string,
    /** 1-based line of the CSV record at fault, when the input came from a CSV file. */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = "StatsInputError";
  }
}
