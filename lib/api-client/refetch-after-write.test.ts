import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { refetchAfterWrite } from "./refetch-after-write";

/** A server whose reads answer slowly with what they saw when they arrived, like a GET sent before a PUT commits. */
function slowServer() {
  let saved = "before";
  return {
    write: (value: string) => (saved = value),
    read: () => {
      const seen = saved;
      return new Promise<string>((resolve) => setTimeout(() => resolve(seen), 50));
    },
  };
}

const KEY = ["reviews", "v1"];
let stopWatching = () => {};
afterEach(() => stopWatching());

/** A query on screen (an observer makes it active): its first fetch starts at once. */
function watched(server: ReturnType<typeof slowServer>) {
  const queryClient = new QueryClient();
  stopWatching = new QueryObserver(queryClient, { queryKey: KEY, queryFn: server.read }).subscribe(() => {});
  return queryClient;
}

describe("refetchAfterWrite", () => {
  it("shows the value written while the query's first fetch was in flight", async () => {
    const server = slowServer();
    const queryClient = watched(server);
    server.write("after");
    await refetchAfterWrite(queryClient, ["reviews"]);
    expect(queryClient.getQueryData(KEY)).toBe("after");
  });

  // The reason the helper exists: this is what the components did before, and it keeps the old answer.
  it("invalidateQueries alone reuses the in-flight first fetch and keeps the answer from before the write", async () => {
    const server = slowServer();
    const queryClient = watched(server);
    server.write("after");
    await queryClient.invalidateQueries({ queryKey: ["reviews"] });
    expect(queryClient.getQueryData(KEY)).toBe("before");
  });

  it("refetches a query that already has data", async () => {
    const server = slowServer();
    const queryClient = watched(server);
    await queryClient.refetchQueries({ queryKey: ["reviews"] });
    expect(queryClient.getQueryData(KEY)).toBe("before");
    server.write("after");
    await refetchAfterWrite(queryClient, ["reviews"]);
    expect(queryClient.getQueryData(KEY)).toBe("after");
  });
});
