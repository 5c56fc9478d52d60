import { requirePageProjectAccess } from "@/app/_server/actor";
import { ProjectPageHeader } from "@/components/project-page-header";
import { AlignmentPanel } from "@/components/alignment/alignment-panel";
import { alignmentPageData } from "@/lib/alignment/alignment-page";
import { prisma } from "@/lib/db/prisma";

/** Aligning a rubric task's or a built-in task's judge to a label set or the gold values: start one (owners), follow its progress, read its report. */
export default async function AlignmentPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<{ id?: string | string[] }>;
}) {
  const { projectId } = await params;
  const { id } = await searchParams;
  const { access } = await requirePageProjectAccess(projectId);
  const data = await alignmentPageData(prisma, access, typeof id === "string" && id.length <= 64 ? id : null);
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Align a judge" />
      <p className="max-w-3xl text-sm text-slate-600">
        Splits the labelled videos into train and held-out, tries candidate judges on train only (the optimizer&apos;s
        rewrites of a criterion&apos;s definition or a step&apos;s prompt, few-shot examples from train with their
        frames, tuned thresholds, and for a built-in verdict its run settings, tried on the stored answers without a
        call), keeps the best, and only then compares it with the current judge on held-out. The chosen judge is saved
        as a new version of the rubric task, or, for a built-in task, as a prompt version of the template it rewrote,
        with run settings an owner can make the defaults for new runs.
      </p>
      <AlignmentPanel projectId={projectId} data={data} />
    </div>
  );
}
