import { Readable } from "node:stream";
import { withoutActor } from "@/lib/api/handler";
import { download } from "@/lib/api/openapi/route-builders";
import { NotFoundError } from "@/lib/errors";
import { clipForToken } from "@/lib/judge/media/clip-urls";
import { appDeps } from "@/lib/videos/app-deps";

export const dynamic = "force-dynamic";

// No session, unlike the rest of /api/v1: a judge endpoint fetches the clip, and the signed short-lived token in the
// path is the authorization (lib/judge/media/clip-urls.ts): one video of one run, once, until it expires.
export const GET = withoutActor(
  {
    summary: "A video's clip, by a signed short-lived URL",
    description:
      "Public: the token in the path authorizes one fetch of one video's file for a judge endpoint (video-file input mode), until it expires. A used or expired URL is a 410, a tampered one a 403, a clip with no video stream a 422.",
    responses: [download("The clip's bytes, with its Content-Type and Content-Length.", ["video/*"])],
    errors: [403, 404, 410, 422],
  },
  async (request) => {
    const token = decodeURIComponent(new URL(request.url).pathname.split("/").at(-1) ?? "");
    if (!token) throw new NotFoundError("No such clip URL.");
    const clip = await clipForToken(appDeps(), token);
    return new Response(Readable.toWeb(clip.body) as ReadableStream, {
      status: 200,
      headers: {
        "content-type": clip.contentType,
        "content-length": String(clip.size),
        "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(clip.fileName)}`,
        "cache-control": "no-store",
      },
    });
  },
);
