"""FrameJury's /api/v1 over HTTP with an API key, standard library only.

Every call goes through one table, api_routes.json (method, path, the query parameters and body fields it may
send); lib/api/openapi/python-client-routes.test.ts checks that table against the app's OpenAPI document, and _call
refuses a parameter the table does not list, so the client cannot drift from the API unnoticed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

JsonDict = dict[str, Any]

_FINISHED = frozenset({"done", "failed", "cancelled"})
# A deletion (of videos, or of a project) is queued, then running, and ends done or cancelled; a failed attempt
# stays running with its error while a worker retries it.
_DELETION_ENDED = frozenset({"done", "cancelled"})


def _load_routes() -> dict[str, JsonDict]:
    text = resources.files("framejury").joinpath("api_routes.json").read_text(encoding="utf-8")
    routes: dict[str, JsonDict] = json.loads(text)["routes"]
    return routes


ROUTES = _load_routes()


class ApiError(Exception):
    """A refusal from the API: the HTTP status and the error's code, message and details."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details


class Withheld(ApiError):
    """409 withheld: an aggregate or export (a leaderboard, the agreement report, an export) computed from videos the
    caller reviews in a blind queue is withheld whole until they submit them, never answered without those videos.
    `queues` names each blind queue with the items the caller has left in it: [{"id", "name", "itemsLeft"}]."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(status, code, message, details)
        withheld = details.get("withheld") if isinstance(details, dict) else None
        self.queues: list[JsonDict] = list(withheld.get("queues", [])) if isinstance(withheld, dict) else []
        self.blind_videos: int = int(withheld.get("blindVideos", 0)) if isinstance(withheld, dict) else 0


class RunCancelled(Exception):
    """wait_for_run was told to stop (its cancel event was set, or Ctrl-C) and cancelled the run."""

    def __init__(self, run: JsonDict) -> None:
        super().__init__(f"run {run.get('id')} cancelled")
        self.run = run


@dataclass(frozen=True)
class Frame:
    """One frame of a frame set the caller extracted: a JPEG and where it sits in the video."""

    jpeg: bytes
    index: int
    timestamp_s: float
    is_key_frame: bool = True
    cluster: int | None = None
    name: str = ""


@dataclass(frozen=True)
class ImportedVideo:
    """What import_video did: the video (as GET /api/v1/videos/:id gives it) and whether it was already there."""

    video: JsonDict
    duplicate: bool

    @property
    def id(self) -> str:
        return str(self.video["id"])


@dataclass(frozen=True)
class RunProgress:
    """A run's state while waiting for it (the whole GET /api/v1/runs/:id answer is in `run`)."""

    status: str
    steps_done: int
    steps_total: int
    steps_failed: int
    run: JsonDict = field(repr=False)

    @property
    def fraction(self) -> float:
        return self.steps_done / self.steps_total if self.steps_total else 0.0


def table(rows: Sequence[Mapping[str, Any]]) -> Any:
    """A pandas DataFrame of the rows when pandas is installed, else the rows as a list of dicts."""
    try:
        import pandas  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return [dict(row) for row in rows]
    return pandas.DataFrame([dict(row) for row in rows])


def print_progress(progress: RunProgress) -> None:
    """A progress callback for wait_for_run that prints one line per change."""
    print(f"{progress.status}: {progress.steps_done}/{progress.steps_total} steps ({progress.steps_failed} failed)", flush=True)


class Client:
    """A FrameJury server, reached with an API key (create one on your account page or with the admin CLI)."""

    def __init__(self, base_url: str | None = None, api_key: str | None = None, timeout: float = 60.0) -> None:
        url = base_url or os.environ.get("FRAMEJURY_URL")
        key = api_key or os.environ.get("FRAMEJURY_API_KEY")
        if not url:
            raise ValueError("base_url is required (or set FRAMEJURY_URL)")
        if not key:
            raise ValueError("api_key is required (or set FRAMEJURY_API_KEY)")
        self.base_url = url.rstrip("/")
        self._api_key = key
        self.timeout = timeout

    # --- the one way out -------------------------------------------------------------------------------

    def _call(
        self,
        route: str,
        path: Mapping[str, str] | None = None,
        query: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
        data: bytes | None = None,
        files: Sequence[tuple[str, str, bytes]] = (),
        raw: bool = False,
        answer_statuses: Sequence[int] = (),
    ) -> Any:
        spec = ROUTES[route]
        allowed_query = set(spec.get("query", []))
        allowed_body = set(spec.get("body", []))
        query = {k: v for k, v in (query or {}).items() if v is not None}
        unknown = [k for k in query if k not in allowed_query] + [k for k in (body or {}) if k not in allowed_body]
        if unknown:
            raise ValueError(f"{route} does not take {', '.join(sorted(unknown))}")
        url_path = str(spec["path"])
        for name, value in (path or {}).items():
            url_path = url_path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        if "{" in url_path:
            raise ValueError(f"{route}: path parameter missing in {url_path}")
        url = self.base_url + url_path
        if query:
            pairs: list[tuple[str, str]] = []
            for key, value in query.items():
                for item in value if isinstance(value, (list, tuple)) else [value]:
                    pairs.append((key, _query_text(item)))
            url += "?" + urllib.parse.urlencode(pairs)
        headers = {"Authorization": f"Bearer {self._api_key}", "Accept": "application/json"}
        payload: bytes | None = None
        content_type = spec.get("contentType", "application/json")
        if content_type == "multipart/form-data":
            payload, headers["Content-Type"] = _multipart(body or {}, files)
        elif data is not None:
            payload = data
            headers["Content-Type"] = "application/octet-stream"
        elif body is not None:
            payload = json.dumps({k: v for k, v in body.items() if v is not None}).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=payload, method=str(spec["method"]), headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                content = response.read()
                if raw:
                    return content
                if not content:
                    return None
                return json.loads(content)
        except urllib.error.HTTPError as error:
            text = error.read()
            if error.code in answer_statuses:
                try:
                    answer = json.loads(text)
                except ValueError:
                    answer = None
                if isinstance(answer, dict) and "error" not in answer:
                    return answer
            try:
                problem = json.loads(text)["error"]
                code = str(problem.get("code", "error"))
            except (ValueError, KeyError, TypeError):
                raise ApiError(error.code, "http_error", text.decode("utf-8", "replace")[:500]) from None
            kind = Withheld if code == "withheld" else ApiError
            raise kind(error.code, code, str(problem.get("message", "")), problem.get("details")) from None

    # --- account and projects ------------------------------------------------------------------------

    def me(self) -> JsonDict:
        result: JsonDict = self._call("me")
        return result

    def projects(self) -> list[JsonDict]:
        answer = self._call("list_projects")
        return list(answer["projects"] if isinstance(answer, dict) else answer)

    def create_project(self, name: str) -> JsonDict:
        result: JsonDict = self._call("create_project", body={"name": name})
        return result

    def project(self, project_id: str) -> JsonDict:
        result: JsonDict = self._call("get_project", {"projectId": project_id})
        return result

    def update_project(
        self,
        project_id: str,
        *,
        name: str | None = None,
        archived: bool | None = None,
        guidelines: str | None = None,
        sso_default_role: str | None = None,
    ) -> JsonDict:
        """Changes what is given. sso_default_role: the role single sign-on gives new accounts in the project
        ("owner", "reviewer", "viewer"), or "none" for no access."""
        body = {"name": name, "archived": archived, "guidelines": guidelines, "ssoDefaultRole": sso_default_role}
        result: JsonDict = self._call("update_project", {"projectId": project_id}, body=body)
        return result

    # --- importing -----------------------------------------------------------------------------------

    def import_video(
        self,
        project_id: str,
        file_path: str | os.PathLike[str],
        *,
        relative_path: str | None = None,
        model: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        on_bytes: Callable[[int, int], None] | None = None,
    ) -> ImportedVideo:
        """Uploads one video as the headless import does: a resumable upload session, chunks of the size the
        server asks for (a chunk refused for its offset goes on from the bytes the server holds), then the
        SHA-256 check. Bytes the project has already are not sent again: the existing video comes back with
        duplicate=True. `metadata`: {prompt, dimension, model, sampleIndex, seed, extra}."""
        file_path = os.fspath(file_path)
        size = os.path.getsize(file_path)
        digest = hashlib.sha256()
        with open(file_path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        body = {"relativePath": relative_path or os.path.basename(file_path), "sizeBytes": size, "sha256": digest.hexdigest(), "model": model, "metadata": dict(metadata) if metadata else None}
        try:
            session = self._call("start_upload", {"projectId": project_id}, body=body)
        except ApiError as error:
            if error.code == "duplicate" and isinstance(error.details, dict) and error.details.get("videoId"):
                return ImportedVideo(self.video(str(error.details["videoId"])), duplicate=True)
            raise
        upload_id = str(session["uploadId"])
        offset = int(session["receivedBytes"])
        chunk = max(1, int(session["chunkBytes"]))
        with open(file_path, "rb") as handle:
            while offset < size:
                handle.seek(offset)
                piece = handle.read(chunk)
                try:
                    answer = self._call("append_chunk", {"uploadId": upload_id}, query={"offset": offset}, data=piece)
                    offset = int(answer["receivedBytes"])
                except ApiError as error:
                    if error.code != "offset_mismatch":
                        raise
                    offset = int(self._call("upload_status", {"uploadId": upload_id})["receivedBytes"])
                if on_bytes:
                    on_bytes(offset, size)
        finished = self._call("complete_upload", {"uploadId": upload_id})
        video_id = str(finished.get("id") or finished.get("video", {}).get("id"))
        return ImportedVideo(self.video(video_id), duplicate=False)

    def cancel_upload(self, upload_id: str) -> None:
        """Discards an upload stopped part-way (import_video leaves it open when it stops part-way)."""
        self._call("cancel_upload", {"uploadId": upload_id})

    def add_frame_set(self, video_id: str, frames: Sequence[Frame], parameters: Mapping[str, Any], decoder: str = "python-client") -> JsonDict:
        """Stores frames the caller extracted (the API takes frames from clients; the server extracts none
        itself). `parameters` as the Import page's: {"mode": "density-peaks"|"scene-change"|"uniform", …}."""
        manifest = []
        files = []
        for frame in frames:
            name = frame.name or f"frame-{frame.index:04d}.jpg"
            manifest.append({"name": name, "index": frame.index, "timestampS": frame.timestamp_s, "isKeyFrame": frame.is_key_frame, "cluster": frame.cluster})
            files.append((name, name, frame.jpeg))
        result: JsonDict = self._call("add_frame_set", {"videoId": video_id}, body={"parameters": json.dumps(dict(parameters)), "manifest": json.dumps(manifest), "decoder": decoder}, files=files)
        return result

    def apply_metadata(self, project_id: str, rows: Sequence[Mapping[str, Any]], *, dry_run: bool = True, confirm_overwrites: bool = False) -> JsonDict:
        """Applies metadata rows ({path, prompt?, model?, dimension?, seed?, sampleIndex?, extra?}) to videos
        already imported; a dry run (the default) only reports the changes."""
        result: JsonDict = self._call("apply_metadata", {"projectId": project_id}, body={"rows": [dict(r) for r in rows], "dryRun": dry_run, "confirmOverwrites": confirm_overwrites})
        return result

    def video(self, video_id: str) -> JsonDict:
        result: JsonDict = self._call("get_video", {"videoId": video_id})
        return result

    def iter_videos(self, project_id: str, *, page_size: int = 100, **filters: Any) -> Iterator[JsonDict]:
        """Every video of the project matching the filters (dimension, model, prompt, status, runId, …), page by page."""
        cursor: str | None = None
        while True:
            answer = self._call("list_videos", {"projectId": project_id}, query={**filters, "pageSize": page_size, "cursor": cursor})
            yield from answer["videos"]
            cursor = answer.get("nextCursor")
            if not cursor:
                return

    def videos(self, project_id: str, **filters: Any) -> Any:
        """The videos as a table: id, path, prompt, model, dimensions, status."""
        rows = [{"id": v["id"], "path": v.get("relativePath"), "prompt": v.get("prompt"), "model": v.get("model"), "dimensions": v.get("dimensions"), "status": v.get("status")} for v in self.iter_videos(project_id, **filters)]
        return table(rows)

    # --- deleting videos and projects ----------------------------------------------------------------

    def delete_videos(self, project_id: str, video_ids: Sequence[str], *, dry_run: bool = False) -> JsonDict:
        """Deletes the project's videos with what depends on them: frames, judgments, their part of every run (a
        run left with no video goes), queue items, items and edit history (owners). A video a queued or running
        run is judging is refused (409 run_in_progress); an id not in the project is a 404 and nothing is deleted.
        dry_run only counts. Returns {dryRun, counts, storage, deletion}: up to 200 videos are deleted in the
        request (deletion None); more are queued for a worker (storage None, `deletion` to follow with
        wait_for_video_deletion(project_id, deletion["id"]))."""
        result: JsonDict = self._call("delete_videos", {"projectId": project_id}, body={"videoIds": list(video_ids), "dryRun": dry_run})
        return result

    def delete_video(self, video_id: str, *, dry_run: bool = False) -> JsonDict:
        """Deletes one video as delete_videos does, by its id alone (owners); dry_run only counts. Returns
        {dryRun, counts, storage, deletion}."""
        result: JsonDict = self._call("delete_video", {"videoId": video_id}, body={"dryRun": dry_run})
        return result

    def video_deletion(self, project_id: str, deletion_id: str) -> JsonDict:
        """A queued deletion of videos: {id, projectId, status (queued, running, done, cancelled), counts,
        videosTotal, videosDeleted, storageRemoved, cancelRequested, error, createdAt, finishedAt}."""
        result: JsonDict = self._call("get_video_deletion", {"projectId": project_id, "deletionId": deletion_id})
        return result

    def cancel_video_deletion(self, project_id: str, deletion_id: str) -> JsonDict:
        """Cancels a queued deletion of videos: at once if no worker has taken it, else after its current batch
        (cancelRequested); the videos not deleted yet stay. An ended one is a 409. Returns the deletion."""
        result: JsonDict = self._call("cancel_video_deletion", {"projectId": project_id, "deletionId": deletion_id})
        return result

    def wait_for_video_deletion(self, project_id: str, deletion_id: str, *, poll_seconds: float = 2.0, timeout_seconds: float | None = None) -> JsonDict:
        """Polls the deletion until it is done or cancelled, and returns it; past timeout_seconds raises
        TimeoutError and leaves it going."""
        return _wait_until_ended(lambda: self.video_deletion(project_id, deletion_id), f"video deletion {deletion_id}", poll_seconds, timeout_seconds)

    def delete_project(self, project_id: str, *, confirm_name: str | None = None, dry_run: bool = False) -> JsonDict:
        """Deletes the project with everything in it (owners; archiving is the reversible alternative). dry_run
        counts what would go: {dryRun: True, name, counts, deletion: None}. Else confirm_name must be the
        project's name (anything else is a 400 invalid_request): the project is gone for everyone at once and a
        worker deletes it; the answer is {dryRun: False, name, counts, deletion}, to follow with
        wait_for_project_deletion(deletion["id"]). A queued or running run is refused (409 run_in_progress)."""
        result: JsonDict = self._call("delete_project", {"projectId": project_id}, body={"dryRun": dry_run, "confirmName": confirm_name})
        return result

    def project_deletions(self) -> list[JsonDict]:
        """The caller's project deletions (a site admin's: everyone's) still going or ended in the last day, newest first."""
        answer = self._call("list_project_deletions")
        return list(answer["deletions"])

    def project_deletion(self, deletion_id: str) -> JsonDict:
        """One project deletion: {id, projectId, projectName, status (queued, running, done, cancelled), counts,
        videosTotal, videosDeleted, storageRemoved, cancelRequested, error, createdAt, finishedAt}."""
        result: JsonDict = self._call("get_project_deletion", {"deletionId": deletion_id})
        return result

    def cancel_project_deletion(self, deletion_id: str) -> JsonDict:
        """Cancels a project deletion: one not started gives the project back at once, a running one after its
        current batch (cancelRequested), with its members and the videos not yet deleted. An ended one is a 409."""
        result: JsonDict = self._call("cancel_project_deletion", {"deletionId": deletion_id})
        return result

    def wait_for_project_deletion(self, deletion_id: str, *, poll_seconds: float = 2.0, timeout_seconds: float | None = None) -> JsonDict:
        """Polls the deletion until it is done or cancelled, and returns it; past timeout_seconds raises
        TimeoutError and leaves it going."""
        return _wait_until_ended(lambda: self.project_deletion(deletion_id), f"project deletion {deletion_id}", poll_seconds, timeout_seconds)

    # --- judges and runs -----------------------------------------------------------------------------

    def endpoints(self, project_id: str) -> list[JsonDict]:
        answer = self._call("list_endpoints", {"projectId": project_id})
        return list(answer["endpoints"] if isinstance(answer, dict) else answer)

    def create_endpoint(self, project_id: str, *, name: str, base_url: str, model: str, api_key: str = "", **settings: Any) -> str:
        """Adds a judge endpoint (an OpenAI-compatible server); the other settings by their API names
        (maxConcurrency, requestsPerMinute, temperature, timeoutSeconds, …). Returns its id."""
        body = {"name": name, "baseUrl": base_url, "model": model, "apiKey": api_key, **settings}
        return str(self._call("create_endpoint", {"projectId": project_id}, body=body)["id"])

    def runs(self, project_id: str) -> list[JsonDict]:
        answer = self._call("list_runs", {"projectId": project_id})
        return list(answer["runs"] if isinstance(answer, dict) else answer)

    def start_run(self, project_id: str, pipeline: str, endpoint_id: str, **options: Any) -> JsonDict:
        """Starts a run (pipeline: "hallucination", "qa", a rubric task's "rubric_<key>", …); options by their
        API names (videoIds, dimension, settings, itemSetId, models, promptVersions, batch)."""
        result: JsonDict = self._call("start_run", {"projectId": project_id}, body={"pipeline": pipeline, "endpointId": endpoint_id, **options})
        return result

    def run(self, run_id: str) -> JsonDict:
        result: JsonDict = self._call("get_run", {"runId": run_id})
        return result

    def cancel_run(self, run_id: str) -> JsonDict:
        self._call("cancel_run", {"runId": run_id})
        return self.run(run_id)

    def wait_for_run(
        self,
        run_id: str,
        *,
        on_progress: Callable[[RunProgress], None] | None = print_progress,
        poll_seconds: float = 2.0,
        timeout_seconds: float | None = None,
        cancel: threading.Event | None = None,
    ) -> JsonDict:
        """Polls the run until it is done, failed or cancelled, calling on_progress whenever its progress
        changes. Setting `cancel` (or Ctrl-C) cancels the run on the server and raises RunCancelled;
        running past timeout_seconds raises TimeoutError and leaves the run going."""
        deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds
        last: tuple[str, int, int] | None = None
        try:
            while True:
                if cancel is not None and cancel.is_set():
                    raise RunCancelled(self.cancel_run(run_id))
                status = self.run(run_id)
                steps = status.get("steps", {})
                progress = RunProgress(str(status["status"]), int(steps.get("done", 0)), int(steps.get("total", 0)), int(steps.get("failed", 0)) + int(steps.get("parse_failed", 0)), status)
                if on_progress and (progress.status, progress.steps_done, progress.steps_total) != last:
                    on_progress(progress)
                last = (progress.status, progress.steps_done, progress.steps_total)
                if progress.status in _FINISHED:
                    return status
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError(f"run {run_id} still {progress.status} after {timeout_seconds} s")
                if cancel is not None:
                    cancel.wait(poll_seconds)
                else:
                    time.sleep(poll_seconds)
        except KeyboardInterrupt:
            raise RunCancelled(self.cancel_run(run_id)) from None

    # --- aligning a judge to labels -----------------------------------------------------------------

    def alignments(self, project_id: str) -> list[JsonDict]:
        answer = self._call("list_alignments", {"projectId": project_id})
        return list(answer["alignments"] if isinstance(answer, dict) else answer)

    def start_alignment(self, project_id: str, **options: Any) -> JsonDict:
        """Starts aligning a judge to labels (owners); options by their API names: a rubric task's
        rubricTaskId and criterionId (and fewShot), or a built-in task's pipeline and targetId (and
        rewriteStepId for a metric such as "verdict", fewShot for a score target); labels ({"kind":
        "labelSet", "id": …} or {"kind": "gold"}), judgeEndpointId, optimizerEndpointId, maxCalls,
        maxCostUsd, heldOutShare, seed, rewrites. Returns {id, status}; follow it with wait_for_alignment."""
        result: JsonDict = self._call("start_alignment", {"projectId": project_id}, body=options)
        return result

    def alignment(self, project_id: str, alignment_id: str) -> JsonDict:
        """One alignment: its input, status, progress and report (the split, every candidate's train
        κ/F1, the held-out comparison with its interval and p-value, calls and cost)."""
        result: JsonDict = self._call("get_alignment", {"projectId": project_id, "alignmentId": alignment_id})
        return result

    def cancel_alignment(self, project_id: str, alignment_id: str) -> JsonDict:
        result: JsonDict = self._call("cancel_alignment", {"projectId": project_id, "alignmentId": alignment_id}, body={})
        return result

    def apply_alignment_settings(self, project_id: str, alignment_id: str) -> JsonDict:
        """Makes a built-in alignment's chosen run settings the project's defaults for new runs (owners)."""
        result: JsonDict = self._call("apply_alignment_settings", {"projectId": project_id, "alignmentId": alignment_id}, body={})
        return result

    def wait_for_alignment(self, project_id: str, alignment_id: str, *, poll_seconds: float = 2.0, timeout_seconds: float | None = None) -> JsonDict:
        """Polls the alignment until it is done, failed or cancelled, and returns it; past timeout_seconds
        raises TimeoutError and leaves it going."""
        deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds
        while True:
            status = self.alignment(project_id, alignment_id)
            if status["status"] in ("done", "failed", "cancelled"):
                return status
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"alignment {alignment_id} still {status['status']} after {timeout_seconds} s")
            time.sleep(poll_seconds)

    # --- results, judgments, agreement, exports ------------------------------------------------------

    def results(self, project_id: str, run_id: str, **filters: Any) -> Any:
        """One row per video of the run: id, path, prompt, model, dimensions and each metric the run's task
        declares (hallucination: S, D, I, overall, verdict), null while unknown."""
        rows = []
        for video in self.iter_videos(project_id, runId=run_id, **filters):
            row: JsonDict = {"video_id": video["id"], "path": video.get("relativePath"), "prompt": video.get("prompt"), "model": video.get("model"), "dimensions": video.get("dimensions")}
            row.update(video.get("scores") or {})
            rows.append(row)
        return table(rows)

    def video_scores(self, video_id: str, run_id: str | None = None) -> JsonDict:
        """Step outputs, scores and the per-video summary of a run (the latest by default)."""
        result: JsonDict = self._call("video_scores", {"videoId": video_id}, query={"runId": run_id})
        return result

    def judgments(self, video_id: str, run_id: str | None = None) -> Any:
        """Every reviewer's current judgment of the video, one row each (target, value, note, reviewer, version)."""
        answer = self._call("video_reviews", {"videoId": video_id}, query={"runId": run_id})
        rows = []
        for review in answer.get("judgments", []):
            reviewer = review.get("reviewer") or {}
            rows.append({"video_id": video_id, "target": review.get("target"), "value": review.get("value"), "note": review.get("note"), "reviewer": reviewer.get("email") if isinstance(reviewer, dict) else reviewer, "version": review.get("version"), "run_id": review.get("runId"), "score_id": review.get("scoreId"), "id": review.get("id")})
        return table(rows)

    def review_score(self, score_id: str, value: float, *, note: str | None = None, expected_version: int | None = None) -> JsonDict:
        """The caller's own judgment of a judge score; expected_version is the version you saw (needed to update)."""
        result: JsonDict = self._call("review_score", {"scoreId": score_id}, body={"value": value, "note": note, "expectedVersion": expected_version})
        return result

    def qa_results(self, run_id: str, **filters: Any) -> Any:
        """A QA run's results per question (CSV export of every question) as a table."""
        return table(_csv_rows(self._call("qa_results", {"runId": run_id}, query={**filters, "format": "csv"}, raw=True)))

    def qa_accuracy(self, project_id: str, run_ids: Sequence[str] = ()) -> JsonDict:
        result: JsonDict = self._call("qa_accuracy", {"projectId": project_id}, query={"runId": list(run_ids) or None})
        return result

    def agreement(self, project_id: str, run_id: str | None = None, **options: Any) -> JsonDict:
        """The agreement report (humans with each other, the judge against humans) as JSON."""
        result: JsonDict = self._call("agreement", {"projectId": project_id}, query={"runId": run_id, **options})
        return result

    def agreement_table(self, project_id: str, run_id: str | None = None, **options: Any) -> Any:
        """The agreement report's flat rows: comparison, breakdown, group, statistic, value, ci_low, ci_high, n."""
        return table(_csv_rows(self._call("agreement", {"projectId": project_id}, query={"runId": run_id, **options, "format": "csv"}, raw=True)))

    def export(self, project_id: str, *, format: str = "jsonl", run_id: str | None = None, **filters: Any) -> bytes:
        """The export file (every judged item with each reviewer's judgment) as bytes: "csv" or "jsonl"."""
        content: bytes = self._call("export", {"projectId": project_id}, query={"format": format, "runId": run_id, **filters}, raw=True)
        return content

    def export_rows(self, project_id: str, *, run_id: str | None = None, **filters: Any) -> Any:
        """The export's JSONL records as a table."""
        text = self.export(project_id, format="jsonl", run_id=run_id, **filters).decode("utf-8")
        return table([json.loads(line) for line in text.splitlines() if line.strip()])


    # --- exports in the community's formats -----------------------------------------------------------

    def export_hf_dataset(
        self,
        project_id: str,
        run_id: str,
        *,
        split: str | None = None,
        seed: str | None = None,
        train: float | None = None,
        validation: float | None = None,
        test: float | None = None,
        field: str | None = None,
    ) -> bytes:
        """A run as a Hugging Face dataset: a .tar (JSONL shards per split, the frames, a README.md dataset card).
        One split, "test", unless split="seed" (with seed= and the train/validation/test shares), split="metadata"
        (with field=) or split="labelSet"."""
        query = {"runId": run_id, "split": split, "seed": seed, "train": train, "validation": validation, "test": test, "field": field}
        content: bytes = self._call("export_hf_dataset", {"projectId": project_id}, query=query, raw=True)
        return content

    def export_label_studio(self, project_id: str, run_id: str, *, part: str = "tasks") -> Any:
        """A run's videos as Label Studio tasks with the judge's scores as predictions (a list), or with
        part="config" the labelling config XML (a str)."""
        content: bytes = self._call("export_label_studio", {"projectId": project_id}, query={"runId": run_id, "part": part}, raw=True)
        return json.loads(content) if part == "tasks" else content.decode("utf-8")

    # --- spans: labelled stretches of a video -----------------------------------------------------------

    def video_spans(self, video_id: str, task: str | None = None) -> JsonDict:
        """A video's spans ({spans, blind}): frames inclusive from 0, seconds, label, boxes, author. While you
        review the video blind, only your own."""
        result: JsonDict = self._call("video_spans", {"videoId": video_id}, query={"task": task})
        return result

    def export_spans(
        self,
        project_id: str,
        *,
        format: str = "jsonl",
        task: str | None = None,
        label: str | None = None,
        author: str | None = None,
        label_set: str | None = None,
    ) -> Any:
        """The project's spans: format "csv" or "jsonl" (bytes), "label-studio" (Label Studio tasks, a list) or
        "label-studio-config" (its labelling config, a str); narrowed by task, label, author (a user id,
        "labelset:<id>[:<annotator>]", "run:<id>" or "gold") or label set. Raises Withheld while you review some
        of the videos blind."""
        query = {"format": format, "task": task, "label": label, "author": author, "labelSet": label_set}
        content: bytes = self._call("export_spans", {"projectId": project_id}, query=query, raw=True)
        if format == "label-studio":
            return json.loads(content)
        return content.decode("utf-8") if format == "label-studio-config" else content

    def spans(self, project_id: str, **filters: Any) -> Any:
        """The project's spans as a table: video, video_id, task, label, annotator, author_kind (reviewer,
        label_set, judge or gold), start_frame, end_frame, start, end, boxes, note (filters as export_spans)."""
        text = self.export_spans(project_id, format="jsonl", **filters).decode("utf-8")
        return table([json.loads(line) for line in text.splitlines() if line.strip()])

    def import_spans(
        self,
        project_id: str,
        file: str | os.PathLike[str] | bytes,
        *,
        name: str,
        format: str = "spans",
        task: str | None = None,
        file_name: str | None = None,
        citation: str | None = None,
        dry_run: bool = True,
    ) -> JsonDict:
        """Imports spans as a label set: format "spans" (CSV or JSONL: video, label, start/end in seconds or
        start_frame/end_frame, boxes, task, annotator, author_kind, note; rows of a judge run or the gold are
        refused: a label set holds people's spans) or "label_studio_spans" (a Label Studio JSON export of video
        annotations). task: the rows' task where they name none ("project" by default). A dry run (the
        default) returns the plan with every problem and its row; an import of a file with any problem raises
        ApiError (400, details.problems) and stores nothing."""
        content, file_name = _file_content(file, file_name, "spans.json" if format == "label_studio_spans" else "spans.csv")
        body = {"format": format, "name": name, "citation": citation, "task": task, "dryRun": "true" if dry_run else "false"}
        result: JsonDict = self._call("import_label_set", {"projectId": project_id}, body=body, files=[("file", file_name, content)])
        return result

    # --- pairwise votes: two videos of one prompt compared ------------------------------------------------

    def import_pair_votes(
        self,
        project_id: str,
        file: str | os.PathLike[str] | bytes,
        *,
        name: str,
        format: str = "csv",
        file_name: str | None = None,
        dry_run: bool = True,
        **options: Any,
    ) -> JsonDict:
        """Imports pairwise votes as a pair set and a label set: format "uve" (UVE-Bench annotations JSON), "arena"
        (FastChat / GenAI-Arena battles), "genai-bench" (its pairwise judge outputs), "csv" or "jsonl" (video_a,
        video_b, verdict, aspect, rater, and optionally prompt, generator_a, generator_b, strength). options: mapping
        ({"video_a": "<column>", …}), aspect, aspects, rater, judge, crossPrompt, citation. A dry run (the default)
        returns the counts (rows, votes, interpreted, refusedByReason, the first refusals) and writes nothing."""
        content, file_name = _file_content(file, file_name, f"votes.{'json' if format in ('uve', 'arena') else format}")
        body = {"options": json.dumps({"format": format, "name": name, **options}), "dryRun": "true" if dry_run else "false"}
        result: JsonDict = self._call("import_pair_votes", {"projectId": project_id}, body=body, files=[("file", file_name, content)])
        return result

    def export_pair_votes(self, pair_set_id: str, *, format: str = "jsonl", aspect: str | None = None) -> bytes:
        """A pair set's votes as bytes: "csv" or "jsonl" (the generic import's columns: an export imports again) or
        "arena" (JSON Lines of FastChat battles: model_a, model_b, winner, judge, tstamp)."""
        content: bytes = self._call("pair_set_votes", {"pairSetId": pair_set_id}, query={"format": format, "aspect": aspect}, raw=True)
        return content

    def pair_votes(self, pair_set_id: str, *, aspect: str | None = None) -> Any:
        """A pair set's votes as a table: prompt, generator_a, generator_b, video_a, video_b, aspect, rater,
        rater_kind, verdict (A, B, tie_good, tie_bad), strength."""
        text = self.export_pair_votes(pair_set_id, format="jsonl", aspect=aspect).decode("utf-8")
        return table([json.loads(line) for line in text.splitlines() if line.strip()])

    def export_pair_votes_hf_dataset(self, pair_set_id: str) -> bytes:
        """A pair set's votes as a Hugging Face dataset: a .tar (JSONL shards and a README.md card; reviewers
        counted, never named)."""
        content: bytes = self._call("export_pair_votes_hf_dataset", {"pairSetId": pair_set_id}, raw=True)
        return content

    def export_lmms_eval_task(self, candidate_set_id: str, *, format: str = "both") -> bytes:
        """A curated candidate set's accepted questions as an lmms-eval task folder (.tar: task yaml, docs
        JSONL, utils.py); format "mc", "open" or "both"."""
        content: bytes = self._call("export_lmms_eval_task", {"setId": candidate_set_id}, query={"format": format}, raw=True)
        return content

    # --- video QA: question sets and results from the eval harnesses -------------------------------------

    def question_sets(self, project_id: str) -> list[JsonDict]:
        """The project's question sets."""
        answer = self._call("list_question_sets", {"projectId": project_id})
        return list(answer["sets"])

    def import_question_set(self, project_id: str, file: str | os.PathLike[str] | bytes, *, file_name: str | None = None, name: str | None = None, dry_run: bool = False) -> JsonDict:
        """Imports a question set file (JSONL, a JSON array or CSV; one question per record) into the project."""
        content, file_name = _file_content(file, file_name, "questions.jsonl")
        body = {"name": name, "dryRun": "true" if dry_run else None}
        result: JsonDict = self._call("import_question_set", {"projectId": project_id}, body=body, files=[("file", file_name, content)])
        return result

    def import_harness_run(
        self,
        project_id: str,
        question_set_id: str,
        file: str | os.PathLike[str] | bytes,
        *,
        format: str,
        model: str,
        file_name: str | None = None,
        dry_run: bool = True,
        create_questions: bool = False,
        judge_endpoint_id: str | None = None,
        text_only: bool = False,
        baseline_run_id: str | None = None,
    ) -> JsonDict:
        """Imports an eval harness's output as an external QA run of a question set: format "lmms-eval" (a
        --log_samples JSONL) or "vlmevalkit" (a prediction .tsv or .xlsx). A dry run (the default) stores
        nothing and lists every row it cannot read with its line; an import of a file with such rows stores
        nothing and answers the same (ok False, runId None). create_questions creates the questions the set
        lacks. judge_endpoint_id judges the open and letterless answers with that endpoint as a job (wait with
        wait_for_run(runId)). text_only marks a run answered without the video; baseline_run_id names such a
        run (or an own run with its text-only baseline) as this run's text-only baseline. Returns {dryRun, ok, errors, rows, created, decided, judging, runId}."""
        content, file_name = _file_content(file, file_name, "samples.jsonl" if format == "lmms-eval" else "predictions.tsv")
        body = {
            "format": format,
            "model": model,
            "dryRun": "true" if dry_run else None,
            "createQuestions": "true" if create_questions else None,
            "judgeEndpointId": judge_endpoint_id,
            "textOnly": "true" if text_only else None,
            "baselineRunId": baseline_run_id,
        }
        path = {"projectId": project_id, "setId": question_set_id}
        result: JsonDict = self._call("import_harness_run", path, body=body, files=[("file", file_name, content)], answer_statuses=(422,))
        return result


def _wait_until_ended(fetch: Callable[[], JsonDict], what: str, poll_seconds: float, timeout_seconds: float | None) -> JsonDict:
    """Polls a deletion until it ends (done or cancelled), as wait_for_alignment polls an alignment."""
    deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds
    while True:
        status = fetch()
        if status["status"] in _DELETION_ENDED:
            return status
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"{what} still {status['status']} after {timeout_seconds} s")
        time.sleep(poll_seconds)


def _file_content(file: str | os.PathLike[str] | bytes, file_name: str | None, default_name: str) -> tuple[bytes, str]:
    if isinstance(file, bytes):
        return file, file_name or default_name
    path = Path(file)
    return path.read_bytes(), file_name or path.name


def _query_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _csv_rows(content: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))


def _multipart(fields: Mapping[str, Any], files: Sequence[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = "framejury-" + uuid.uuid4().hex
    out = io.BytesIO()
    for name, value in fields.items():
        if value is None:
            continue
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        out.write(str(value).encode("utf-8"))
        out.write(b"\r\n")
    for name, file_name, content in files:
        kind = "image/jpeg" if file_name.lower().endswith((".jpg", ".jpeg")) else "application/octet-stream"
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{file_name}"\r\nContent-Type: {kind}\r\n\r\n'.encode())
        out.write(content)
        out.write(b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"
