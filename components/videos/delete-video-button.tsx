"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { DeleteVideosDialog } from "./delete-videos-dialog";

/** The video page's *Delete video* (owners): the counted confirmation, then back to the list. */
export function DeleteVideoButton({ projectId, videoId, afterHref }: { projectId: string; videoId: string; afterHref: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClass("danger")} onClick={() => setOpen(true)} data-testid="delete-video">
        Delete video
      </button>
      {open && <DeleteVideosDialog projectId={projectId} videoIds={[videoId]} onCancel={() => setOpen(false)} onDeleted={() => router.push(afterHref)} />}
    </>
  );
}
