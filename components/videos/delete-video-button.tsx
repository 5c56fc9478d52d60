"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { DeleteVideosDialog } from "./delete-videos-dialog";
import { withDeletedNotice } from "./deleted-notice";

/** The video page's *Delete video* (owners): the counted confirmation, then back to the list, which says it was deleted. */
export function DeleteVideoButton({
  projectId,
  videoId,
  afterHref,
}: {
  projectId: string;
  videoId: string;
  afterHref: string;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClass("danger")} onClick={() => setOpen(true)} data-testid="delete-video">
        Delete video
      </button>
      {open && (
        <DeleteVideosDialog
          projectId={projectId}
          videoIds={[videoId]}
          onCancel={() => setOpen(false)}
          onDeleted={(result) => router.push(withDeletedNotice(afterHref, result.counts.videos))}
        />
      )}
    </>
  );
}
