import Link from "next/link";
import type { JudgeSpanFailures as Failures } from "@/lib/spans/judge-span-failures";

/** The run page's count of videos that kept no judge spans, with each one's reason (the first few by path). */
export function JudgeSpanFailures({ projectId, failures }: { projectId: string; failures: Failures }) {
  if (failures.count === 0) return null;
  return (
    <section className="flex flex-col gap-1 rounded bg-amber-50 p-3 text-sm" data-testid="judge-span-failures">
      <h2 className="font-medium text-amber-900">
        {failures.count} video{failures.count === 1 ? "" : "s"} kept no judge spans
      </h2>
      <p className="text-slate-700">
        Their scores stand; their spans are missing from agreement on where until they are derived again.
      </p>
      <ul className="list-disc pl-5">
        {failures.videos.map((f) => (
          <li key={f.videoId}>
            <Link href={`/projects/${projectId}/videos/${f.videoId}`} className="text-indigo-700 underline">
              {f.relativePath}
            </Link>
            : {f.reason}
          </li>
        ))}
      </ul>
      {failures.count > failures.videos.length && (
        <p className="text-slate-600">and {failures.count - failures.videos.length} more.</p>
      )}
    </section>
  );
}
