import { Readable } from "node:stream";
import { RequestAbortedError, ValidationError } from "../errors";

/**
 * The request body as a Node stream that is never cancelled. Next.js builds `request.body` from the
 * IncomingMessage with undici's ReadableStreamFrom, whose pull, when the stream is cancelled while it
 * waits for data, closes the already closed stream from a microtask: an uncaught
 * "ReadableStream is already closed" that nothing can catch. So destroying this stream (a refused
 * upload, a failed write) reads the rest of the body and drops it instead of cancelling it, and a
 * client that drops the connection surfaces as RequestAbortedError.
 */
export function requestBodyStream(request: Request): Readable {
  if (!request.body) throw new ValidationError("The request has no body.");
  const reader = request.body.getReader();
  let ended = false;
  const drain = async () => {
    try {
      while (!ended) ended = (await reader.read()).done;
    } catch {
      ended = true; // the client is gone: nothing more to drop
    }
  };
  return new Readable({
    read() {
      reader.read().then(
        ({ done, value }) => {
          if (this.destroyed) return; // drain() owns the reader now
          if (done) {
            ended = true;
            this.push(null);
          } else {
            this.push(value);
          }
        },
        () => {
          ended = true;
          this.destroy(new RequestAbortedError());
        },
      );
    },
    destroy(error, callback) {
      if (!ended) void drain();
      callback(error);
    },
  });
}
