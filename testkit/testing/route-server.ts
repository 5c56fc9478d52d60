import http from "node:http";
import type { AddressInfo } from "node:net";
import { NodeNextRequest, NodeNextResponse } from "next/dist/server/base-http/node";
import { sendResponse } from "next/dist/server/send-response";
import { NextRequestAdapter, signalFromNodeResponse } from "next/dist/server/web/spec-extension/adapters/next-request";

type RouteHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export interface RouteServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves one route handler over real HTTP, wiring the request and response exactly as Next.js's
 * app-route template does (NodeNextRequest → NextRequestAdapter, sendResponse), so aborted uploads
 * and failing response streams behave as they do in `next start`.
 */
export async function serveRoute<P>(handler: RouteHandler<P>, params: (url: URL) => P): Promise<RouteServer> {
  const server = http.createServer((req, res) => {
    const nodeNextReq = new NodeNextRequest(req);
    const nodeNextRes = new NodeNextResponse(res);
    const request = NextRequestAdapter.fromNodeNextRequest(nodeNextReq, signalFromNodeResponse(res));
    void (async () => {
      try {
        const response = await handler(request, {
          params: Promise.resolve(params(new URL(req.url ?? "/", "http://localhost"))),
        });
        await sendResponse(nodeNextReq, nodeNextRes, response);
      } catch (error) {
        // Next.js logs these and ends the response; a test sees the broken response.
        console.error("route server:", error);
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
