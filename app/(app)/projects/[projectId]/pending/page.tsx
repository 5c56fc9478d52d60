import Link from "next/link";
import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { PendingExtractionPanel } from "@/components/import/pending-extraction-panel";
import { prisma } from "@/lib/db/prisma";
import { describeResize } from "@/lib/frames/frame-plan";
import {
  resizeOfQuery,
  uniformFrameItems,
  uniformFramesQuerySchema,
  videosLackingUniformFrames,
} from "@/lib/videos/uniform-frame-sets";

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export default async function PendingPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { catalogue, access } = await requirePageProjectAccess(projectId, "videos.import");
  const query = uniformFramesQuerySchema.safeParse(await searchParams);
  const count = query.success ? query.data.uniform : undefined;
  const resize = query.success ? resizeOfQuery(query.data) : undefined;
  // What the runs and items that need uniform sets are called comes from the tasks that declare them.
  const unsized = uniformFrameItems(catalogue, false);
  const sized = uniformFrameItems(catalogue, true);
  const everyVideo = query.success && query.data.videos === "all" && resize === undefined;
  const lacking =
    count === undefined ? null : await videosLackingUniformFrames(prisma, access, count, resize, everyVideo, catalogue);
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader
        projectId={projectId}
        title={
          count === undefined
            ? "Videos waiting for frames"
            : everyVideo
              ? `Uniform frames (${count}) for every video`
              : `Uniform frames (${count}) for ${(resize ? sized : unsized).runsNoun}`
        }
      />
      {count === undefined ? (
        <p className="text-sm text-slate-600">
          Videos registered through the API have no frames yet; this page extracts them in this browser.{" "}
          {capitalised(unsized.runsNoun)} need a uniform frame set instead:{" "}
          <Link
            className="text-indigo-700 underline"
            href={`/projects/${projectId}/pending?uniform=8`}
            data-testid="uniform-link"
          >
            extract 8 uniform frames for the videos with {unsized.itemsNoun}
          </Link>
          .
        </p>
      ) : everyVideo ? (
        <p className="text-sm text-slate-600">
          Runs that judge the videos themselves with {count} uniform frames (VBench-2.0&apos;s 64) leave out a video
          without that set. These videos have none yet; this page extracts it in this browser (their other frame sets
          stay).{" "}
          <Link className="text-indigo-700 underline" href={`/projects/${projectId}/pending`}>
            Videos waiting for any frames
          </Link>
        </p>
      ) : resize ? (
        <p className="text-sm text-slate-600">
          {capitalised(sized.runsNoun)} send the evaluated model {count} evenly spaced frames of each video, at{" "}
          {describeResize(resize)}. These videos have {sized.itemsNoun} but no such uniform set yet, so those runs would
          leave them out; this page extracts it in this browser (their other frame sets stay).{" "}
          <Link className="text-indigo-700 underline" href={`/projects/${projectId}/pending`}>
            Videos waiting for any frames
          </Link>
        </p>
      ) : (
        <p className="text-sm text-slate-600">
          The judges of {unsized.runsNoun} see {count} evenly spaced frames of each video. These videos have{" "}
          {unsized.itemsNoun} but no uniform set of {count} frames yet, so those runs would leave them out; this page
          extracts that set in this browser (their other frame sets stay).{" "}
          <Link className="text-indigo-700 underline" href={`/projects/${projectId}/pending`}>
            Videos waiting for any frames
          </Link>
        </p>
      )}
      {!query.success && (
        <p role="alert" className="text-sm text-red-700">
          {query.error.issues.some((i) => i.path[0] === "uniform")
            ? "The frame count must be a whole number from 1 to 64."
            : query.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ")}
        </p>
      )}
      <PendingExtractionPanel
        key={count ?? "pending"}
        projectId={projectId}
        uniform={
          lacking && count !== undefined
            ? {
                count,
                atPlannedSize: resize !== undefined,
                itemsNoun: everyVideo ? "" : uniformFrameItems(catalogue, resize !== undefined).itemsNoun,
                videos: lacking.map((v) => ({ ...v, sizeBytes: Number(v.sizeBytes) })),
              }
            : undefined
        }
      />
    </div>
  );
}
