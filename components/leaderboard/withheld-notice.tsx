import type { Withheld } from "@/lib/visibility/withheld";

/**
 * The whole view withheld (lib/visibility/withheld): what is hidden and why, each blind queue with the items the
 * caller has left in it, and no partial numbers beside it. Leaderboards, agreement and the results' downloads show it.
 */
export function WithheldNotice({ message, withheld }: { message: string; withheld: Withheld }) {
  return (
    <div
      role="status"
      data-testid="withheld"
      className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800"
    >
      <p className="font-medium">{message}</p>
      <ul className="mt-1 list-disc pl-5 text-slate-600">
        {withheld.queues.map((queue) => (
          <li key={queue.id} data-testid="withheld-queue">
            {queue.name}: {queue.itemsLeft} {queue.itemsLeft === 1 ? "item" : "items"} left
          </li>
        ))}
      </ul>
    </div>
  );
}
