import Link from "next/link";
import { requirePageActor } from "@/app/_server/actor";
import { ActionForm, Field } from "@/components/action-form";
import { Card, EmptyState } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { ProjectDeletions } from "@/components/projects/project-deletions";
import { listProjectDeletions } from "@/lib/projects/project-deletion";
import { listProjects } from "@/lib/projects/projects";
import { createProjectAction } from "./actions";

export default async function ProjectsPage() {
  const actor = await requirePageActor();
  const [projects, deletions] = await Promise.all([listProjects(prisma, actor), listProjectDeletions(prisma, actor)]);
  const active = projects.filter((project) => !project.archived);
  const archived = projects.filter((project) => project.archived);
  return (
    <div className="grid gap-6 md:grid-cols-[1fr_18rem]">
      <div className="flex flex-col gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <ProjectDeletions initial={JSON.parse(JSON.stringify(deletions))} />
        {active.length === 0 ? (
          <EmptyState title="No projects yet">
            Create one on the right, or ask a project owner to add you as a member.
          </EmptyState>
        ) : (
          <ul
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
            data-testid="project-list"
          >
            {active.map((project) => (
              <li key={project.id}>
                <Link
                  href={`/projects/${project.id}`}
                  className="flex items-center justify-between px-4 py-3 hover:bg-slate-50"
                >
                  <span className="font-medium">{project.name}</span>
                  <span className="text-xs text-slate-500">
                    {project.role} · {project.memberCount} member{project.memberCount === 1 ? "" : "s"}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {archived.length > 0 && (
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-600">Archived ({archived.length})</summary>
            <ul className="mt-2 flex flex-col gap-1">
              {archived.map((project) => (
                <li key={project.id}>
                  <Link href={`/projects/${project.id}`} className="text-slate-600 underline">
                    {project.name}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <Card title="New project">
        <ActionForm action={createProjectAction} submitLabel="Create project">
          <Field label="Name" name="name" placeholder="e.g. VBench-2.0 Sora run" />
        </ActionForm>
      </Card>
    </div>
  );
}
