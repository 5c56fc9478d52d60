import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Brings the queries under `queryKey` up to date after a write the caller has just made, and resolves when the
 * ones on screen hold the server's answer given after that write.
 *
 * `invalidateQueries` alone is not enough: a query whose first fetch is still in flight (it has no data yet) has
 * that fetch reused rather than cancelled, and the fetch may have been answered before the write committed, so
 * the screen would keep the old answer with nothing left to refetch. Cancelling first makes the refetch start
 * after the write.
 */
export async function refetchAfterWrite(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
