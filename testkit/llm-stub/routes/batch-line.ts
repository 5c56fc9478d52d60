/**
 * TEST TOOL. One line of a batch, answered by the same rules and faults as a chat completion; a fault that would leave
 * a connection without an answer fails the line instead.
 */
import { randomUUID } from "node:crypto";
import { requestParts, type ChatRequest } from "../chat-request";
import { completionFor } from "../completion";
import { takeFault } from "../stub-faults";
import { FALLBACK_RULE } from "../stub-rules";
import { timesSeen } from "../stub-state";
import type { StubBatchLineRecord, StubState } from "../stub-types";
import { batchLineSchema } from "./batch-schemas";

/** A batch line answered by the same rules and faults as a chat completion; faults that would leave a connection without an answer fail the line. */
export function answerBatchLine(
  state: StubState,
  batchId: string,
  line: string,
  failLine: boolean,
): { ok: boolean; line: unknown } {
  const requestId = `batch_req_${randomUUID()}`;
  let parsedLine: { custom_id: string; body: ChatRequest };
  try {
    parsedLine = batchLineSchema.parse(JSON.parse(line));
  } catch (error) {
    return {
      ok: false,
      line: {
        id: requestId,
        custom_id: null,
        response: null,
        error: { code: "invalid_request", message: `invalid line: ${error instanceof Error ? error.message : ""}` },
      },
    };
  }
  const { text, images } = requestParts(parsedLine.body);
  const rule = state.rules().find((candidate) => candidate.match.test(text)) ?? FALLBACK_RULE;
  const record: StubBatchLineRecord = {
    batchId,
    customId: parsedLine.custom_id,
    text,
    images,
    rule: rule.name,
    fault: null,
    status: 200,
  };
  state.batchLines.push(record);
  const failed = (status: number, type: string, message: string) => {
    record.status = status;
    return {
      ok: false,
      line: {
        id: requestId,
        custom_id: parsedLine.custom_id,
        response: { status_code: status, request_id: requestId, body: { error: { message, type, code: type } } },
        error: null,
      },
    };
  };
  if (failLine) {
    record.fault = "failed_line";
    record.status = 500;
    return {
      ok: false,
      line: {
        id: requestId,
        custom_id: parsedLine.custom_id,
        response: null,
        error: { code: "server_error", message: "stub: this batch line failed" },
      },
    };
  }
  const fault = takeFault(state.faults, text);
  record.fault = fault?.kind ?? null;
  if (fault?.kind === "status") {
    const type =
      fault.status === 429 ? "rate_limit_exceeded" : fault.status >= 500 ? "server_error" : "invalid_request_error";
    return failed(fault.status, type, fault.message ?? `stub fault: HTTP ${fault.status}`);
  }
  if (fault?.kind === "hang" || fault?.kind === "disconnect" || fault?.kind === "malformed")
    return failed(500, "server_error", `stub fault: ${fault.kind}`);
  if (fault?.kind === "vllm_error") return failed(fault.status, "BadRequestError", fault.message);
  if (fault?.kind === "image_limit" && images.length > fault.limit)
    return failed(400, "BadRequestError", `At most ${fault.limit} image(s) may be provided in one request.`);
  const completion = completionFor(
    parsedLine.body,
    text,
    images,
    fault,
    rule,
    requestId,
    timesSeen(state, parsedLine.body.model, text),
  );
  return {
    ok: true,
    line: {
      id: requestId,
      custom_id: parsedLine.custom_id,
      response: { status_code: 200, request_id: requestId, body: completion },
      error: null,
    },
  };
}
