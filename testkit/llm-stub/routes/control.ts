/**
 * TEST TOOL. The stub LLM's model list and its control routes (`/__stub/…`): a process that is not the test's (the
 * app under e2e, `npm run stub-llm`) queues faults, reads the requests, resets them and sets the Batch API's behaviour.
 */
import { queuedFaultSchema } from "../stub-faults";
import { readBody, sendJson } from "../stub-http";
import { resetVideoOptions } from "../stub-state";
import { stubVideoOptionsPatch } from "../stub-video";
import { batchOptionsSchema } from "./batch-schemas";
import type { StubRouteContext } from "./route";

/** `GET /v1/models` (and `/models`). */
export function listModels({ res }: StubRouteContext) {
  sendJson(res, 200, {
    object: "list",
    data: [{ id: "stub-vision", object: "model", created: 0, owned_by: "framejury-stub" }],
  });
}

/** `POST /__stub/faults`: queues a fault (stub-faults.ts, queuedFaultSchema). */
export async function queueFault({ req, res, state }: StubRouteContext) {
  const parsed = queuedFaultSchema.safeParse(JSON.parse(await readBody(req)));
  if (!parsed.success) return sendJson(res, 400, { error: { message: parsed.error.message } });
  state.faults.push(parsed.data);
  sendJson(res, 200, { queued: state.faults.length });
}

/** `GET /__stub/requests`: every chat request recorded since the last reset. */
export function listRequests({ res, state }: StubRouteContext) {
  sendJson(res, 200, { requests: state.requests });
}

/** `POST /__stub/reset`: forgets the queued faults and the recorded requests, and takes video parts as at the start. */
export function resetRequests({ res, state }: StubRouteContext) {
  state.faults.length = 0;
  state.requests.length = 0;
  resetVideoOptions(state);
  sendJson(res, 200, { ok: true });
}

/** `POST /__stub/video-options`: changes how video parts are taken (../stub-video.ts): a mode, a frame or body limit. */
export async function setVideoOptions({ req, res, state }: StubRouteContext) {
  const parsed = stubVideoOptionsPatch.safeParse(JSON.parse(await readBody(req)));
  if (!parsed.success) return sendJson(res, 400, { error: { message: parsed.error.message } });
  Object.assign(state.videoOptions, parsed.data);
  sendJson(res, 200, state.videoOptions);
}

/** `POST /__stub/batch-options`: changes the Batch API's completion delay or failed share. */
export async function setBatchOptions({ req, res, state }: StubRouteContext) {
  const parsed = batchOptionsSchema.safeParse(JSON.parse(await readBody(req)));
  if (!parsed.success) return sendJson(res, 400, { error: { message: parsed.error.message } });
  Object.assign(state.batchOptions, parsed.data);
  sendJson(res, 200, state.batchOptions);
}
