import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ProjectPageHeader } from "@/components/project-page-header";
import { RubricTasksPanel } from "@/components/rubrics/rubric-tasks-panel";
import { prisma } from "@/lib/db/prisma";
import { rubricTasksPageData } from "@/lib/rubrics/rubric-tasks-page";

/** The project's rubric tasks: video judges defined as data (every member reads them; owners define, edit and preview). */
export default async function RubricTasksPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { access } = await requirePageProjectAccess(projectId);
  const { tasks, canManage, canImportItems, preview } = await rubricTasksPageData(prisma, access);
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Rubric tasks" />
      <p className="max-w-3xl text-sm text-slate-600">
        A rubric task is a video judge defined as data: its criteria, the frames it sees and its prompt. It runs from
        the Judge page like a built-in task, and its scores are listed, reviewed and compared with people&apos;s the
        same way. Saving an edit makes a new version; a run keeps the version it started with. A task with runs is
        archived, never deleted.{" "}
        <Link className="text-blue-700 underline" href={`/projects/${projectId}/alignment`}>
          Align a judge to a label set
        </Link>
        .
      </p>
      <RubricTasksPanel
        projectId={projectId}
        tasks={tasks}
        canManage={canManage}
        canImportItems={canImportItems}
        preview={preview}
      />
    </div>
  );
}
