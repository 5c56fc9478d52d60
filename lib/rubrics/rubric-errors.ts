import { AppError } from "../errors";
import type { RubricProblem } from "./rubric-definition";

/** A definition that does not hold: each problem names its field; nothing was saved. Sent as a 400 with `details.problems`. */
export class RubricDefinitionError extends AppError {
  constructor(readonly problems: RubricProblem[]) {
    super(
      400,
      "invalid_rubric",
      `The rubric task is not valid: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      { problems },
    );
  }
}
