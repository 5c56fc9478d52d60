import { ValidationError } from "../errors";
import { capabilitiesOf } from "./endpoint-capabilities";
import { inputModeOf, type InputMode } from "./input-modes";

/**
 * The input mode a run is started in and keeps (`JudgeRun.inputMode`, part of its calls' cache keys): the one the
 * request names, else the endpoint's. A mode the endpoint's probe saw refused is a 400 with the endpoint's words,
 * before anything is queued; a mode never probed is tried (its calls then fail with the endpoint's own error).
 */
export function runInputMode(
  endpoint: { name: string; inputMode: string; capabilities: unknown },
  asked: InputMode | undefined,
): InputMode {
  const mode = asked ?? inputModeOf(endpoint.inputMode);
  const finding = capabilitiesOf(endpoint.capabilities)?.inputModes?.[mode];
  if (finding?.accepted === "no") {
    const said = finding.refusal ? ` It answered: "${finding.refusal}".` : "";
    throw new ValidationError(
      `Endpoint ${endpoint.name} refused ${mode} requests when it was probed.${said} Start the run in another input mode, or probe the endpoint again.`,
    );
  }
  return mode;
}
