/**
 * The refusal of a span file holding more spans than MAX_SPAN_FILE_ROWS. The readers count a file's spans before
 * building any (a Label Studio result makes one span per label and range, a product of two counts the file chooses),
 * so a file that would grow past the limit is refused with the figure counted so far, before its rows take memory.
 */
import { PayloadTooLargeError } from "../../errors";
import { MAX_SPAN_FILE_ROWS } from "./span-file-types";

/** 413 naming the limit and the count: `atLeast` when counting stopped once the count passed the limit. */
export function tooManySpansError(count: number, options: { atLeast: boolean }): PayloadTooLargeError {
  const held = `${options.atLeast ? "at least " : ""}${count.toLocaleString("en")}`;
  return new PayloadTooLargeError(
    `The file holds ${held} spans; a span file may hold at most ${MAX_SPAN_FILE_ROWS.toLocaleString("en")}. Split it.`,
    { limit: MAX_SPAN_FILE_ROWS, count },
  );
}
