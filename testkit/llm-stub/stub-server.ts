/**
 * TEST TOOL: a local stand-in for a paid OpenAI-compatible API, used by the tests and the demo.
 * It speaks the chat-completions wire format (and OpenAI's Batch API), answers from rules keyed on the prompt text,
 * and injects faults on request (control API `POST /__stub/faults`, or an `x-stub-fault` header). A router: the
 * route table (./routes/index.ts) names every path, one handler module per route.
 * Nothing in FrameJury's product code depends on it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { STUB_ROUTES } from "./routes";
import { batchOptionsSchema } from "./routes/batch-schemas";
import { queuedFaultSchema } from "./stub-faults";
import { sendJson } from "./stub-http";
import { createStubState, resetVideoOptions } from "./stub-state";
import { stubVideoOptionsPatch } from "./stub-video";
import type { StubServer, StubServerOptions, StubState } from "./stub-types";

export type { StubRequestRecord, StubServer, StubServerOptions } from "./stub-types";

/** Hands a request to the first route whose method and path match; a 404 when none does, a 500 when a handler throws. */
async function route(state: StubState, req: http.IncomingMessage, res: http.ServerResponse) {
  try {
    const url = new URL(req.url ?? "/", "http://stub");
    for (const candidate of STUB_ROUTES) {
      const params = candidate.methods.includes(req.method as "GET" | "POST")
        ? candidate.path.exec(url.pathname)
        : null;
      if (params) return await candidate.handle({ req, res, url, params, state });
    }
    sendJson(res, 404, {
      error: { message: `The stub LLM has no route ${req.method} ${url.pathname}`, type: "invalid_request_error" },
    });
  } catch (error) {
    sendJson(res, 500, {
      error: { message: `stub error: ${error instanceof Error ? error.message : String(error)}`, type: "server_error" },
    });
  }
}

export async function startStubLlm(options: StubServerOptions = {}): Promise<StubServer> {
  const state = createStubState(options);
  const server = http.createServer((req, res) => void route(state, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests: state.requests,
    batches: state.batches,
    batchLines: state.batchLines,
    setBatchOptions: (changes) => Object.assign(state.batchOptions, batchOptionsSchema.parse(changes)),
    setVideoOptions: (changes) => Object.assign(state.videoOptions, stubVideoOptionsPatch.parse(changes)),
    addFault: (fault) => state.faults.push(queuedFaultSchema.parse(fault)),
    reset: () => {
      state.faults.length = 0;
      state.requests.length = 0;
      state.batchLines.length = 0;
      state.answered.clear();
      resetVideoOptions(state);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of state.hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
