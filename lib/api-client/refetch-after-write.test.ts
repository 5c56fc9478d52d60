import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
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

describe("refetchAfterWrite", () => {
  it("shows the value written while the query's first fetch was in flight", async () => {
    const server = slowServer();
    const queryClient = new QueryClient();
    const observer = new QueryObserver(queryClient, { queryKey: ["reviews", "v1"], queryFn: server.read });
    const unsubscribe = observer.subscribe(() => {});
    server.write("after");
    await refetchAfterWrite(queryClient, ["reviews"]);
    expect(queryClient.getQueryData(["reviews", "v1"])).toBe("after");
    unsubscribe();
  });

  // The reason the helper exists: this is what the components did before, and it keeps the old answer.
  it("invalidateQueries alone reuses the in-flight first fetch and keeps the answer from before the write", async () => {
    const server = slowServer();
    const queryClient = new QueryClient();
    const observer = new QueryObserver(queryClient, { queryKey: ["reviews", "v1"], queryFn: server.read });
    const unsubscribe = observer.subscribe(() => {});
    server.write("after");
    await queryClient.invalidateQueries({ queryKey: ["reviews"] });
    expect(queryClient.getQueryData(["reviews", "v1"])).toBe("before");
    unsubscribe();
  });

  it("refetches a query that already has data", async () => {
    const server = slowServer();
    const queryClient = new QueryClient();
    const observer = new QueryObserver(queryClient, { queryKey: ["reviews", "v1"], queryFn: server.read });
    const unsubscribe = observer.subscribe(() => {});
    await queryClient.refetchQueries({ queryKey: ["reviews"] });
    expect(queryClient.getQueryData(["reviews", "v1"])).toBe("before");
    server.write("after");
    await refetchAfterWrite(queryClient, ["reviews"]);
    expect(queryClient.getQueryData(["reviews", "v1"])).toBe("after");
    unsubscribe();
  });
});
