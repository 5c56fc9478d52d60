/** TEST TOOL. What a route of the stub LLM is (./index.ts lists them): a method, a path pattern and its handler. */
import type http from "node:http";
import type { StubState } from "../stub-types";

/** What a handler gets: the request and answer, the parsed URL, the path pattern's groups and the server's state. */
export interface StubRouteContext {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  /** The path pattern's match: `params[1]` is its first group (a file's or a batch's id). */
  params: RegExpExecArray;
  state: StubState;
}

export interface StubRoute {
  methods: readonly ("GET" | "POST")[];
  /** Matched against the whole path, without the query. */
  path: RegExp;
  handle(context: StubRouteContext): void | Promise<void>;
}
