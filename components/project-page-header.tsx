import Link from "next/link";

/** The title of a project sub-page, with the way back to the project. */
export function ProjectPageHeader({ projectId, title }: { projectId: string; title: string }) {
  return (
    <div className="flex items-baseline gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <Link href={`/projects/${projectId}`} className="text-sm text-indigo-700 underline">
        back to the project
      </Link>
    </div>
  );
}
