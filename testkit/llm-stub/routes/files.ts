/**
 * TEST TOOL. The stub LLM's files (`/v1/files`), as OpenAI's Batch API uses them: a batch's input uploaded as
 * multipart, and the output and error files the stub writes, read back by id.
 */
import { randomUUID } from "node:crypto";
import { readRaw, sendJson } from "../stub-http";
import type { StubFile } from "../stub-types";
import type { StubRouteContext } from "./route";

/** `POST /v1/files`: a multipart upload with `file` and `purpose`. */
export async function uploadFile({ req, res, state }: StubRouteContext) {
  const form = await new Request("http://stub/v1/files", {
    method: "POST",
    headers: { "content-type": String(req.headers["content-type"] ?? "") },
    body: new Uint8Array(await readRaw(req)),
  })
    .formData()
    .catch(() => null);
  const file = form?.get("file");
  const purpose = form?.get("purpose");
  if (!form || !(file instanceof Blob) || typeof purpose !== "string") {
    return sendJson(res, 400, {
      error: { message: "Expected a multipart upload with `file` and `purpose`.", type: "invalid_request_error" },
    });
  }
  const stored: StubFile = {
    id: `file-${randomUUID()}`,
    purpose,
    filename: (file as File).name ?? "upload",
    bytes: Buffer.from(await file.arrayBuffer()),
    createdAt: Date.now(),
  };
  state.files.set(stored.id, stored);
  state.log(`file ${stored.id} (${purpose}, ${stored.bytes.length} bytes)`);
  return sendJson(res, 200, fileObject(stored));
}

/** `GET /v1/files/{id}` (the file's object) and `GET /v1/files/{id}/content` (its bytes). */
export function getFile({ res, params, state }: StubRouteContext) {
  const file = state.files.get(params[1]!);
  if (!file)
    return sendJson(res, 404, { error: { message: `No such file ${params[1]}`, type: "invalid_request_error" } });
  if (!params[2]) return sendJson(res, 200, fileObject(file));
  res.writeHead(200, { "content-type": "application/octet-stream" });
  res.end(file.bytes);
}

function fileObject(file: StubFile) {
  return {
    id: file.id,
    object: "file",
    bytes: file.bytes.length,
    created_at: Math.floor(file.createdAt / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: "processed",
  };
}
