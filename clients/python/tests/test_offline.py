"""The client's request building without FrameJury: a local HTTP server records what the client sends."""

from __future__ import annotations

import http.server
import json
import threading
import unittest
from typing import Any

from framejury import ApiError, Client, Withheld


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[dict[str, Any]] = []
    # Scripted answers, (status, JSON), taken in order before the defaults below.
    replies: list[tuple[int, Any]] = []

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _answer(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _scripted(self) -> bool:
        if not _Recorder.replies:
            return False
        status, answer = _Recorder.replies.pop(0)
        self._answer(status, json.dumps(answer).encode(), "application/json")
        return True

    def do_GET(self) -> None:
        _Recorder.seen.append({"method": "GET", "path": self.path})
        if self._scripted():
            return
        if self.path.startswith("/api/v1/projects/p1/export/spans?format=jsonl"):
            self._answer(200, b'{"video": "a.mp4", "label": "hand", "start_frame": 3, "end_frame": 9}\n', "application/x-ndjson")
        elif self.path.startswith("/api/v1/projects/p1/export/spans?format=label-studio"):
            self._answer(200, b'[{"data": {"video": "a.mp4"}, "annotations": []}]', "application/json")
        elif self.path.startswith("/api/v1/projects/p1/export/label-studio"):
            self._answer(200, b'[{"data": {"video": "v.mp4"}}]', "application/json")
        else:
            self._answer(200, b"tar-bytes", "application/x-tar")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        _Recorder.seen.append({"method": self.command, "path": self.path, "type": self.headers["Content-Type"], "body": body})
        if self._scripted():
            return
        if b"bad-model" in body:
            self._answer(422, json.dumps({"error": {"code": "validation", "message": "bad model"}}).encode(), "application/json")
        else:
            answer = {"dryRun": False, "ok": False, "errors": [{"line": 2, "message": "not a JSON object"}], "rows": 1, "created": 0, "decided": {}, "runId": None}
            self._answer(422, json.dumps(answer).encode(), "application/json")

    do_PATCH = do_POST
    do_DELETE = do_POST


class OfflineCalls(unittest.TestCase):
    def setUp(self) -> None:
        _Recorder.seen = []
        _Recorder.replies = []
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.client = Client(f"http://127.0.0.1:{self.server.server_address[1]}", "key")

    def tearDown(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def test_harness_import_sends_the_file_and_fields_and_returns_the_refusal_with_its_lines(self) -> None:
        answer = self.client.import_harness_run("p1", "s1", b'{"doc_id": 0}\n{oops\n', format="lmms-eval", model="m", dry_run=False, create_questions=True, file_name="samples_x.jsonl")
        self.assertEqual(answer["errors"], [{"line": 2, "message": "not a JSON object"}])
        sent = _Recorder.seen[-1]
        self.assertEqual(sent["path"], "/api/v1/projects/p1/question-sets/s1/harness-runs")
        self.assertTrue(sent["type"].startswith("multipart/form-data; boundary="))
        self.assertIn(b'name="format"\r\n\r\nlmms-eval', sent["body"])
        self.assertIn(b'name="createQuestions"\r\n\r\ntrue', sent["body"])
        self.assertNotIn(b'name="dryRun"', sent["body"])
        self.assertIn(b'filename="samples_x.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n{"doc_id": 0}\n{oops\n', sent["body"])

    def test_alignment_calls_send_their_paths_and_bodies(self) -> None:
        labels = {"kind": "labelSet", "id": "ls1"}
        with self.assertRaises(ApiError):
            self.client.start_alignment("p1", pipeline="hallucination", targetId="verdict", rewriteStepId="static_hallucination", labels=labels, judgeEndpointId="e1", optimizerEndpointId="e1", maxCalls=500, maxCostUsd=5)
        sent = _Recorder.seen[-1]
        self.assertEqual((sent["method"], sent["path"]), ("POST", "/api/v1/projects/p1/alignments"))
        self.assertEqual(json.loads(sent["body"])["rewriteStepId"], "static_hallucination")
        with self.assertRaises(ApiError):
            self.client.apply_alignment_settings("p1", "a/1")
        self.assertEqual(_Recorder.seen[-1]["path"], "/api/v1/projects/p1/alignments/a%2F1/apply-settings")
        with self.assertRaises(ValueError):
            self.client.start_alignment("p1", criterion="x")
        with self.assertRaises(ApiError):
            self.client.update_project("p1", sso_default_role="none")
        sent = _Recorder.seen[-1]
        self.assertEqual((sent["method"], sent["path"], json.loads(sent["body"])), ("PATCH", "/api/v1/projects/p1", {"ssoDefaultRole": "none"}))

    def test_a_real_error_stays_an_api_error(self) -> None:
        with self.assertRaises(ApiError) as refused:
            self.client.import_harness_run("p1", "s1", b"x", format="vlmevalkit", model="bad-model")
        self.assertEqual((refused.exception.status, refused.exception.code), (422, "validation"))
        self.assertIn(b'name="dryRun"\r\n\r\ntrue', _Recorder.seen[-1]["body"])

    def test_a_withheld_view_raises_withheld_naming_the_blind_queue(self) -> None:
        queues = [{"id": "q1", "name": "Mechanics", "itemsLeft": 20}]
        message = 'This agreement report or export is hidden while you review "Mechanics" blind: 20 items left.'
        _Recorder.replies = [(409, {"error": {"code": "withheld", "message": message, "details": {"withheld": {"queues": queues, "blindVideos": 20}}}})] * 2
        with self.assertRaises(Withheld) as withheld:
            self.client.agreement("p1", run_id="r1")
        self.assertEqual((withheld.exception.status, withheld.exception.queues, withheld.exception.blind_videos), (409, queues, 20))
        self.assertIn("blind: 20 items left", str(withheld.exception))
        # A Withheld is an ApiError, so code catching ApiError still sees it; a download is refused the same way.
        with self.assertRaises(ApiError):
            self.client.export_hf_dataset("p1", "r1")

    def test_exports(self) -> None:
        self.assertEqual(self.client.export_hf_dataset("p1", "r1"), b"tar-bytes")
        self.assertEqual(self.client.export_label_studio("p1", "r1"), [{"data": {"video": "v.mp4"}}])
        self.assertEqual(self.client.export_lmms_eval_task("c1", format="mc"), b"tar-bytes")
        self.assertEqual(self.client.export_hf_dataset("p1", "r1", split="seed", seed="42", train=0.7, test=0.3), b"tar-bytes")
        self.assertEqual(
            [s["path"] for s in _Recorder.seen],
            [
                "/api/v1/projects/p1/export/hf-dataset?runId=r1",
                "/api/v1/projects/p1/export/label-studio?runId=r1&part=tasks",
                "/api/v1/candidate-sets/c1/export/lmms-eval?format=mc",
                "/api/v1/projects/p1/export/hf-dataset?runId=r1&split=seed&seed=42&train=0.7&test=0.3",
            ],
        )


    def test_spans_are_listed_exported_and_imported(self) -> None:
        rows = self.client.spans("p1", task="project", label_set="ls1")
        first = rows[0] if isinstance(rows, list) else rows.to_dict("records")[0]
        self.assertEqual((first["label"], first["start_frame"], first["end_frame"]), ("hand", 3, 9))
        self.assertEqual(self.client.export_spans("p1", format="label-studio"), [{"data": {"video": "a.mp4"}, "annotations": []}])
        self.assertEqual(self.client.export_spans("p1", format="csv", author="run:r1"), b"tar-bytes")
        _Recorder.replies = [(200, {"spans": [], "blind": False})]
        self.assertEqual(self.client.video_spans("v1", task="hallucination"), {"spans": [], "blind": False})
        self.assertEqual(
            [s["path"] for s in _Recorder.seen],
            [
                "/api/v1/projects/p1/export/spans?format=jsonl&task=project&labelSet=ls1",
                "/api/v1/projects/p1/export/spans?format=label-studio",
                "/api/v1/projects/p1/export/spans?format=csv&author=run%3Ar1",
                "/api/v1/videos/v1/spans?task=hallucination",
            ],
        )
        plan = {"dryRun": True, "plan": {"spans": 1, "problems": []}, "labelSet": None}
        _Recorder.replies = [(200, plan)]
        self.assertEqual(self.client.import_spans("p1", b"[]", name="LS", format="label_studio_spans", task="hallucination"), plan)
        sent = _Recorder.seen[-1]
        self.assertEqual(sent["path"], "/api/v1/projects/p1/label-sets")
        self.assertIn(b'name="format"\r\n\r\nlabel_studio_spans', sent["body"])
        self.assertIn(b'name="task"\r\n\r\nhallucination', sent["body"])
        self.assertIn(b'name="dryRun"\r\n\r\ntrue', sent["body"])
        self.assertIn(b'filename="spans.json"', sent["body"])

    def test_pair_votes_are_imported_and_exported(self) -> None:
        answer = {"dryRun": True, "rows": 2, "votes": 1, "refusedByReason": {"unknown_verdict": 1}}
        _Recorder.replies = [(200, answer)]
        result = self.client.import_pair_votes("p1", b"[]", name="UVE", format="uve", mapping={"prompt": "caption"})
        self.assertEqual(result, answer)
        sent = _Recorder.seen[-1]
        self.assertEqual(sent["path"], "/api/v1/projects/p1/pair-imports")
        options = json.dumps({"format": "uve", "name": "UVE", "mapping": {"prompt": "caption"}}).encode()
        self.assertIn(b'name="options"\r\n\r\n' + options, sent["body"])
        self.assertIn(b'name="dryRun"\r\n\r\ntrue', sent["body"])
        self.assertIn(b'filename="votes.json"', sent["body"])
        self.assertEqual(self.client.export_pair_votes("s1", format="arena", aspect="overall"), b"tar-bytes")
        self.assertEqual(self.client.export_pair_votes_hf_dataset("s1"), b"tar-bytes")
        self.assertEqual(
            [s["path"] for s in _Recorder.seen[-2:]],
            ["/api/v1/pair-sets/s1/votes?format=arena&aspect=overall", "/api/v1/pair-sets/s1/export/hf-dataset"],
        )

    def _sent(self) -> list[tuple[str, str, Any]]:
        return [(s["method"], s["path"], json.loads(s["body"]) if s.get("body") else None) for s in _Recorder.seen]

    def test_video_deletions_send_their_methods_paths_and_bodies(self) -> None:
        counts = {"videos": 1, "frames": 4, "storageObjects": 5}
        deletion = {"id": "d1", "projectId": "p1", "status": "queued", "videosTotal": 300, "videosDeleted": 0}
        _Recorder.replies = [
            (200, {"dryRun": True, "counts": counts, "storage": None, "deletion": None}),
            (202, {"dryRun": False, "counts": counts, "storage": None, "deletion": deletion}),
            (200, {"dryRun": False, "counts": counts, "storage": {"removed": 5, "failed": [], "failedCount": 0}, "deletion": None}),
            (200, {"dryRun": True, "counts": counts, "storage": None, "deletion": None}),
            (200, {**deletion, "status": "running"}),
            (200, {**deletion, "status": "running", "cancelRequested": True}),
        ]
        self.assertEqual(self.client.delete_videos("p1", ["v1"], dry_run=True), {"dryRun": True, "counts": counts, "storage": None, "deletion": None})
        queued = self.client.delete_videos("p1", ("v1", "v2"))
        self.assertEqual(queued["deletion"], deletion)
        self.assertEqual(self.client.delete_video("v/1")["storage"]["removed"], 5)
        self.assertTrue(self.client.delete_video("v1", dry_run=True)["dryRun"])
        self.assertEqual(self.client.video_deletion("p1", "d1")["status"], "running")
        self.assertTrue(self.client.cancel_video_deletion("p1", "d1")["cancelRequested"])
        self.assertEqual(
            self._sent(),
            [
                ("POST", "/api/v1/projects/p1/videos/delete", {"videoIds": ["v1"], "dryRun": True}),
                ("POST", "/api/v1/projects/p1/videos/delete", {"videoIds": ["v1", "v2"], "dryRun": False}),
                ("DELETE", "/api/v1/videos/v%2F1", {"dryRun": False}),
                ("DELETE", "/api/v1/videos/v1", {"dryRun": True}),
                ("GET", "/api/v1/projects/p1/video-deletions/d1", None),
                ("POST", "/api/v1/projects/p1/video-deletions/d1/cancel", None),
            ],
        )
        self.assertEqual(_Recorder.seen[2]["type"], "application/json")

    def test_project_deletions_send_their_methods_paths_and_bodies(self) -> None:
        counts = {"videos": 2, "runs": 1, "storageObjects": 10}
        deletion = {"id": "d1", "projectId": "p1", "projectName": "Old", "status": "queued"}
        _Recorder.replies = [
            (200, {"dryRun": True, "name": "Old", "counts": counts, "deletion": None}),
            (400, {"error": {"code": "invalid_request", "message": "Type the project's name"}}),
            (202, {"dryRun": False, "name": "Old", "counts": counts, "deletion": deletion}),
            (200, {"deletions": [deletion]}),
            (200, deletion),
            (200, {**deletion, "status": "cancelled"}),
        ]
        self.assertEqual(self.client.delete_project("p1", dry_run=True)["counts"], counts)
        with self.assertRaises(ApiError) as refused:
            self.client.delete_project("p1", confirm_name="Wrong")
        self.assertEqual((refused.exception.status, refused.exception.code), (400, "invalid_request"))
        self.assertEqual(self.client.delete_project("p1", confirm_name="Old")["deletion"], deletion)
        self.assertEqual(self.client.project_deletions(), [deletion])
        self.assertEqual(self.client.project_deletion("d1"), deletion)
        self.assertEqual(self.client.cancel_project_deletion("d1")["status"], "cancelled")
        self.assertEqual(
            self._sent(),
            [
                ("DELETE", "/api/v1/projects/p1", {"dryRun": True}),
                ("DELETE", "/api/v1/projects/p1", {"dryRun": False, "confirmName": "Wrong"}),
                ("DELETE", "/api/v1/projects/p1", {"dryRun": False, "confirmName": "Old"}),
                ("GET", "/api/v1/me/project-deletions", None),
                ("GET", "/api/v1/me/project-deletions/d1", None),
                ("POST", "/api/v1/me/project-deletions/d1/cancel", None),
            ],
        )

    def test_waiting_for_a_deletion_polls_until_it_ends(self) -> None:
        _Recorder.replies = [(200, {"id": "d1", "status": "queued"}), (200, {"id": "d1", "status": "running", "error": "storage down"}), (200, {"id": "d1", "status": "done"})]
        self.assertEqual(self.client.wait_for_video_deletion("p1", "d1", poll_seconds=0.01)["status"], "done")
        self.assertEqual(self._sent(), [("GET", "/api/v1/projects/p1/video-deletions/d1", None)] * 3)
        _Recorder.seen = []
        _Recorder.replies = [(200, {"id": "d2", "status": "running"}), (200, {"id": "d2", "status": "cancelled"})]
        self.assertEqual(self.client.wait_for_project_deletion("d2", poll_seconds=0.01)["status"], "cancelled")
        self.assertEqual(self._sent(), [("GET", "/api/v1/me/project-deletions/d2", None)] * 2)

    def test_waiting_past_the_timeout_raises_and_leaves_the_deletion_going(self) -> None:
        _Recorder.replies = [(200, {"id": "d1", "status": "running"})] * 1000
        with self.assertRaises(TimeoutError) as waited:
            self.client.wait_for_project_deletion("d1", poll_seconds=0.01, timeout_seconds=0.05)
        self.assertIn("project deletion d1 still running", str(waited.exception))
        _Recorder.replies = [(200, {"id": "d2", "status": "queued"})] * 1000
        with self.assertRaises(TimeoutError):
            self.client.wait_for_video_deletion("p1", "d2", poll_seconds=0.01, timeout_seconds=0.05)
        self.assertEqual({s["method"] for s in _Recorder.seen}, {"GET"})
        self.assertGreaterEqual(len(_Recorder.seen), 4)

if __name__ == "__main__":
    unittest.main()
