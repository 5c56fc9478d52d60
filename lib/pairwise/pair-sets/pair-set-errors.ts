import { AppError } from "../../errors";

/** The most pairs one set holds: a maker asking for more is refused, not cut short. */
export const MAX_PAIRS_PER_SET = 100_000;

/**
 * A pair set that cannot be made as asked: no prompt has videos of two generators (`no_pairs`), the design would make
 * more than MAX_PAIRS_PER_SET pairs (`too_many_pairs`), more honeypots than videos (`too_many_honeypots`). The message
 * says why and what to change; nothing is written.
 */
export class PairSetRefusedError extends AppError {
  constructor(
    code: "no_pairs" | "too_many_pairs" | "too_many_honeypots",
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(422, code, message, details);
  }
}
