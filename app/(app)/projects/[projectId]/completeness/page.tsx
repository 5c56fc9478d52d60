import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { getStorage } from "@/lib/storage/storage";
import { listPromptLists, projectCompleteness } from "@/lib/videos/prompt-list-store";

export default async function CompletenessPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { actor } = await requirePageProjectAccess(projectId);
  const deps = { prisma, storage: getStorage() };
  const [report, lists] = await Promise.all([projectCompleteness(deps, actor, projectId), listPromptLists(deps, actor, projectId)]);
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="VBench-2.0 completeness" />
      {lists.length === 0 ? (
        <EmptyState title="No prompt list yet">
          Import a VBench-2.0 <code>prompts/</code> folder (or any prompt list) with the videos: the report compares the videos against it.
        </EmptyState>
      ) : (
        <p className="text-sm text-slate-600">
          Against {lists.length} prompt list{lists.length === 1 ? "" : "s"}: {lists.map((l) => `${l.name} (${l.entryCount})`).join(", ")}. 3 samples per prompt, 20 for Diversity.
        </p>
      )}
      <p className="text-sm" data-testid="completeness-totals">
        {report.totals.present} of {report.totals.expected} expected samples present · {report.totals.missing} missing · {report.totals.unexpected} unexpected · {report.totals.unmatched} names match
        no prompt
      </p>
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="px-3 py-2">Dimension</th>
            <th>Prompts</th>
            <th>Expected</th>
            <th>Present</th>
            <th>Missing</th>
            <th>Unexpected</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {report.dimensions.map((row) => (
            <tr key={row.dimension ?? "(none)"}>
              <td className="px-3 py-2">{row.dimension ?? "(no dimension)"}</td>
              <td>{row.prompts}</td>
              <td>{row.expected}</td>
              <td>{row.present}</td>
              <td className={row.missing.length ? "text-red-700" : ""}>{row.missing.length}</td>
              <td className={row.unexpected.length ? "text-amber-700" : ""}>{row.unexpected.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid gap-5 lg:grid-cols-3">
        <Card title="Missing samples">
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.dimensions
              .flatMap((row) => row.missing)
              .slice(0, 500)
              .map((m, i) => (
                <li key={i} className="py-0.5">
                  <span className="text-slate-500">{m.dimension}</span> · {m.prompt.slice(0, 120)} · #{m.sampleIndex}
                </li>
              ))}
          </ul>
        </Card>
        <Card title="Unexpected files">
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.dimensions
              .flatMap((row) => row.unexpected)
              .slice(0, 500)
              .map((u, i) => (
                <li key={i} className="py-0.5">
                  <span className="font-mono">{u.relativePath}</span> · {u.reason.replaceAll("_", " ")}
                </li>
              ))}
          </ul>
        </Card>
        <Card title="Names matching no prompt">
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.unmatched.slice(0, 500).map((u, i) => (
              <li key={i} className="py-0.5 font-mono">
                {u.relativePath}
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}
