import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { getStorage } from "@/lib/storage/storage";
import { roleCan } from "@/lib/authz/permissions";
import { DeletePromptListButton } from "@/components/import/delete-prompt-list-button";
import { completenessQuerySchema, listPromptLists, projectCompleteness } from "@/lib/videos/prompt-list-store";

/** The first samples of each list; the API (`GET …/completeness?page=`) gives the rest a page at a time. */
const SHOWN = 500;

export default async function CompletenessPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { actor, role } = await requirePageProjectAccess(projectId);
  const deps = { prisma, storage: getStorage() };
  const [report, lists] = await Promise.all([projectCompleteness(deps, actor, projectId, completenessQuerySchema.parse({ pageSize: SHOWN })), listPromptLists(deps, actor, projectId)]);
  const canDelete = roleCan(role, "videos.import");
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="VBench-2.0 completeness" />
      {lists.length === 0 ? (
        <EmptyState title="No prompt list yet">
          Import a VBench-2.0 <code>prompts/</code> folder (or any prompt list) with the videos: the report compares the videos against it.
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-2 text-sm text-slate-600">
          <p>
            Against {lists.length} prompt list{lists.length === 1 ? "" : "s"}. 3 samples per prompt, 20 for Diversity.
          </p>
          <ul className="flex flex-col gap-1" data-testid="prompt-lists">
            {lists.map((l) => (
              <li key={l.id} className="flex flex-wrap items-center gap-2">
                <span>
                  {l.name} ({l.entryCount.toLocaleString("en")} prompts)
                </span>
                {canDelete && <DeletePromptListButton projectId={projectId} promptList={l} />}
              </li>
            ))}
          </ul>
        </div>
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
              <td className={row.missing ? "text-red-700" : ""}>{row.missing}</td>
              <td className={row.unexpected ? "text-amber-700" : ""}>{row.unexpected}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid gap-5 lg:grid-cols-3">
        <Card title={shownTitle("Missing samples", report.missing)}>
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.missing.items.map((m, i) => (
              <li key={i} className="py-0.5">
                <span className="text-slate-500">{m.dimension}</span> · {m.prompt.slice(0, 120)} · #{m.sampleIndex}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={shownTitle("Unexpected files", report.unexpected)}>
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.unexpected.items.map((u, i) => (
              <li key={i} className="py-0.5">
                <span className="font-mono">{u.relativePath}</span> · {u.reason.replaceAll("_", " ")}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={shownTitle("Names matching no prompt", report.unmatched)}>
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.unmatched.items.map((u, i) => (
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

function shownTitle(title: string, list: { total: number; items: readonly unknown[] }): string {
  return list.total > list.items.length ? `${title} (the first ${list.items.length.toLocaleString("en")} of ${list.total.toLocaleString("en")})` : title;
}
