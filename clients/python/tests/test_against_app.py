"""The client against a real running FrameJury (e2e/python-client.spec.ts starts one and runs these).

Environment: FRAMEJURY_URL, FRAMEJURY_API_KEY (an owner's key), FRAMEJURY_PROJECT_ID (that owner's project),
FRAMEJURY_STUB_URL (the stub LLM's OpenAI-compatible base URL) and FRAMEJURY_SLOW_STUB_URL (one that answers
slowly, so a run is still going when it is cancelled). ffmpeg makes the clip and its frames.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest
from pathlib import Path

import framejury
from framejury import ApiError, Client, Frame, RunCancelled, RunProgress


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests through e2e/python-client.spec.ts")
    return value


class AgainstTheApp(unittest.TestCase):
    client: Client
    project_id: str
    stub_url: str
    folder: Path

    @classmethod
    def setUpClass(cls) -> None:
        if shutil.which("ffmpeg") is None:
            raise RuntimeError("ffmpeg is needed on PATH to make the test clip")
        cls.client = Client(_env("FRAMEJURY_URL"), _env("FRAMEJURY_API_KEY"))
        cls.project_id = _env("FRAMEJURY_PROJECT_ID")
        cls.stub_url = _env("FRAMEJURY_STUB_URL")
        cls.folder = Path(tempfile.mkdtemp(prefix="framejury-py-"))

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.folder, ignore_errors=True)

    def clip(self, name: str, source: str) -> Path:
        path = self.folder / name
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source, "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(path)], check=True)
        return path

    def frames_of(self, clip: Path) -> list[Frame]:
        out = self.folder / (clip.stem + "-frames")
        out.mkdir()
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(clip), "-vf", "fps=2,scale=160:-2", "-q:v", "3", str(out / "f-%02d.jpg")], check=True)
        files = sorted(out.iterdir())
        self.assertGreaterEqual(len(files), 2)
        return [Frame(jpeg=f.read_bytes(), index=i, timestamp_s=i * 0.5, is_key_frame=True, cluster=i) for i, f in enumerate(files)]

    def ready_video(self, name: str, source: str, prompt: str) -> str:
        clip = self.clip(name, source)
        imported = self.client.import_video(self.project_id, clip, relative_path=f"PyModel/{name}", metadata={"prompt": prompt, "dimension": "Mechanics"})
        frames = self.frames_of(clip)
        self.client.add_frame_set(imported.id, frames, {"mode": "density-peaks", "sampleFps": 2, "keyFrames": len(frames), "maxSide": 160})
        return imported.id

    def test_01_projects(self) -> None:
        me = self.client.me()
        self.assertIn("email", json.dumps(me))
        ids = [p["id"] for p in self.client.projects()]
        self.assertIn(self.project_id, ids)
        created = self.client.create_project("Made from Python")
        self.assertIn(created["id"], [p["id"] for p in self.client.projects()])
        renamed = self.client.update_project(created["id"], name="Renamed from Python")
        self.assertEqual(self.client.project(created["id"])["name"], "Renamed from Python", renamed)

    def test_02_import_with_metadata_and_duplicates(self) -> None:
        clip = self.clip("py-import.mp4", "testsrc2=size=320x240:rate=24")
        seen: list[tuple[int, int]] = []
        first = self.client.import_video(self.project_id, clip, relative_path="PyModel/py-import.mp4", model="PyModel", metadata={"prompt": "A red ball rolls", "seed": 7}, on_bytes=lambda done, total: seen.append((done, total)))
        self.assertFalse(first.duplicate)
        self.assertEqual(first.video["prompt"], "A red ball rolls")
        self.assertEqual(first.video["model"], "PyModel")
        self.assertEqual(seen[-1], (clip.stat().st_size, clip.stat().st_size))
        again = self.client.import_video(self.project_id, clip)
        self.assertTrue(again.duplicate)
        self.assertEqual(again.id, first.id)
        plan = self.client.apply_metadata(self.project_id, [{"path": "PyModel/py-import.mp4", "dimension": "Thermotics"}], dry_run=False, confirm_overwrites=True)
        self.assertEqual(plan["matchedVideos"], 1)
        self.assertIn("Thermotics", json.dumps(self.client.video(first.id)))
        listed = self.client.videos(self.project_id, model="PyModel")
        rows = listed.to_dict("records") if hasattr(listed, "to_dict") else listed
        self.assertIn(first.id, [row["id"] for row in rows])

    def test_03_bad_input_is_a_clear_error(self) -> None:
        text = self.folder / "not-a-video.mp4"
        text.write_bytes(b"this is text, not a video\n" * 20)
        with self.assertRaises(ApiError) as refused:
            self.client.import_video(self.project_id, text)
        self.assertEqual(refused.exception.status, 422)
        with self.assertRaises(ValueError):
            self.client.start_run(self.project_id, "hallucination", "x", notAnOption=1)

    def test_04_run_wait_results_judgments_agreement_export(self) -> None:
        video_id = self.ready_video("py-run.mp4", "mandelbrot=size=320x240:rate=24", "A glass falls off a table")
        endpoint_id = self.client.create_endpoint(self.project_id, name="Python stub", base_url=self.stub_url, model="stub-model", maxConcurrency=2)
        self.assertIn(endpoint_id, [e["id"] for e in self.client.endpoints(self.project_id)])
        started = self.client.start_run(self.project_id, "hallucination", endpoint_id, videoIds=[video_id])
        updates: list[RunProgress] = []
        run = self.client.wait_for_run(started["id"], on_progress=updates.append, poll_seconds=0.5, timeout_seconds=180)
        self.assertEqual(run["status"], "done", run)
        self.assertEqual(updates[-1].status, "done")
        self.assertEqual(updates[-1].steps_done, updates[-1].steps_total)
        self.assertGreater(updates[-1].steps_total, 0)
        self.assertIn(started["id"], [r["id"] for r in self.client.runs(self.project_id)])

        results = self.client.results(self.project_id, started["id"])
        rows = results.to_dict("records") if hasattr(results, "to_dict") else results
        self.assertEqual([r["video_id"] for r in rows], [video_id])
        self.assertIsNotNone(rows[0]["overall"])

        scores = self.client.video_scores(video_id, started["id"])
        score = next(s for step in scores["steps"] for s in step.get("scores", []))
        self.client.review_score(score["id"], score["value"], note="checked from Python")
        judgments = self.client.judgments(video_id, started["id"])
        jrows = judgments.to_dict("records") if hasattr(judgments, "to_dict") else judgments
        self.assertEqual([(j["score_id"], j["note"]) for j in jrows], [(score["id"], "checked from Python")])

        report = self.client.agreement(self.project_id, started["id"])
        self.assertIsInstance(report, dict)
        flat = self.client.agreement_table(self.project_id, started["id"])
        flat_rows = flat.to_dict("records") if hasattr(flat, "to_dict") else flat
        self.assertTrue(all({"comparison", "statistic", "value"} <= set(r) for r in flat_rows))

        csv_bytes = self.client.export(self.project_id, format="csv", run_id=started["id"])
        self.assertIn(video_id, csv_bytes.decode("utf-8"))
        exported = self.client.export_rows(self.project_id, run_id=started["id"])
        erows = exported.to_dict("records") if hasattr(exported, "to_dict") else exported
        self.assertIn(video_id, json.dumps(erows, default=str))

    def test_05_cancel_while_waiting(self) -> None:
        video_id = self.ready_video("py-cancel.mp4", "testsrc=size=320x240:rate=24", "A cup spins")
        endpoint_id = self.client.create_endpoint(self.project_id, name="Slow stub", base_url=_env("FRAMEJURY_SLOW_STUB_URL"), model="stub-model", maxConcurrency=1)
        started = self.client.start_run(self.project_id, "hallucination", endpoint_id, videoIds=[video_id])
        stop = threading.Event()
        stop.set()
        with self.assertRaises(RunCancelled) as cancelled:
            self.client.wait_for_run(started["id"], on_progress=None, cancel=stop)
        self.assertEqual(cancelled.exception.run["id"], started["id"])
        final = self.client.wait_for_run(started["id"], on_progress=None, poll_seconds=0.5, timeout_seconds=60)
        self.assertEqual(final["status"], "cancelled")

    def test_07_harness_import_and_community_exports(self) -> None:
        # A source no other test uses: identical bytes would make the import a duplicate of that test's video.
        video_id = self.ready_video("py-qa.mp4", "smptebars=size=320x240:rate=24", "A ball rolls down a ramp")
        question = {"id": "p1", "video": "py-qa.mp4", "question": "Where does the ball roll?", "format": "mc", "options": {"A": "Down the ramp.", "B": "Up."}, "answer": "A"}
        imported = self.client.import_question_set(self.project_id, (json.dumps(question) + "\n").encode(), file_name="py-questions.jsonl", name="Python QA")
        set_id = next(s["id"] for s in self.client.question_sets(self.project_id) if s["name"] == "Python QA")
        self.assertTrue(imported)
        samples = "\n".join(
            json.dumps(line)
            for line in [
                {"doc_id": 0, "doc": {"videoID": "py-qa", "question_id": "p1", "question": "Where does the ball roll?", "options": ["A. Down the ramp.", "B. Up."], "answer": "A"}, "target": "A", "resps": [["A"]], "filtered_resps": ["A"]},
                {"doc_id": 1, "doc": {"videoID": "py-qa", "question": "Is the ball red?", "options": ["A. Yes.", "B. No."], "answer": "B"}, "target": "B", "resps": [["B"]], "filtered_resps": ["B"]},
            ]
        ).encode()
        checked = self.client.import_harness_run(self.project_id, set_id, samples, format="lmms-eval", model="py-model")
        self.assertFalse(checked["ok"])
        self.assertEqual([e["line"] for e in checked["errors"]], [2])
        stored = self.client.import_harness_run(self.project_id, set_id, samples, format="lmms-eval", model="py-model", dry_run=False, create_questions=True)
        self.assertEqual((stored["ok"], stored["rows"], stored["created"], stored["decided"]["correct"]), (True, 2, 1, 2), stored)
        accuracy = self.client.qa_accuracy(self.project_id, [stored["runId"]])
        self.assertIn(stored["runId"], json.dumps(accuracy))

        tasks = self.client.export_label_studio(self.project_id, stored["runId"])
        self.assertIsInstance(tasks, list)
        self.assertIn("<View", self.client.export_label_studio(self.project_id, stored["runId"], part="config"))
        dataset = self.client.export_hf_dataset(self.project_id, stored["runId"])
        self.assertEqual(dataset[257:262], b"ustar")
        self.assertIn(video_id, json.dumps(self.client.video(video_id)))

    def listed_ids(self, project_id: str) -> list[str]:
        listed = self.client.videos(project_id)
        rows = listed.to_dict("records") if hasattr(listed, "to_dict") else listed
        return [row["id"] for row in rows]

    def test_08_delete_videos(self) -> None:
        # Sources no other test uses, so neither import is a duplicate of another test's video.
        video_id = self.ready_video("py-delete.mp4", "rgbtestsrc=size=320x240:rate=24", "A box slides off a shelf")
        counted = self.client.delete_videos(self.project_id, [video_id], dry_run=True)
        self.assertEqual((counted["dryRun"], counted["deletion"], counted["storage"]), (True, None, None), counted)
        self.assertEqual(counted["counts"]["videos"], 1)
        self.assertGreaterEqual(counted["counts"]["frames"], 2)
        self.assertIn(video_id, self.listed_ids(self.project_id))
        self.assertEqual(self.client.video(video_id)["id"], video_id)
        deleted = self.client.delete_videos(self.project_id, [video_id])
        self.assertEqual((deleted["dryRun"], deleted["deletion"], deleted["counts"]["videos"]), (False, None, 1), deleted)
        self.assertEqual(deleted["storage"]["failedCount"], 0)
        self.assertNotIn(video_id, self.listed_ids(self.project_id))
        with self.assertRaises(ApiError) as gone:
            self.client.video(video_id)
        self.assertEqual(gone.exception.status, 404)

        single = self.client.import_video(self.project_id, self.clip("py-delete-one.mp4", "yuvtestsrc=size=320x240:rate=24"), relative_path="PyModel/py-delete-one.mp4").id
        self.assertEqual(self.client.delete_video(single, dry_run=True)["counts"]["videos"], 1)
        self.assertEqual(self.client.video(single)["id"], single)
        self.assertFalse(self.client.delete_video(single)["dryRun"])
        with self.assertRaises(ApiError) as gone:
            self.client.video(single)
        self.assertEqual(gone.exception.status, 404)
        self.assertNotIn(single, self.listed_ids(self.project_id))

    def test_09_delete_project(self) -> None:
        project_id = self.client.create_project("Thrown away from Python")["id"]
        self.client.import_video(project_id, self.clip("py-throwaway.mp4", "testsrc=size=160x120:rate=12"), relative_path="PyModel/py-throwaway.mp4")
        counted = self.client.delete_project(project_id, dry_run=True)
        self.assertEqual((counted["dryRun"], counted["name"], counted["deletion"]), (True, "Thrown away from Python", None), counted)
        self.assertEqual((counted["counts"]["videos"], counted["counts"]["members"]), (1, 1))
        self.assertIn(project_id, [p["id"] for p in self.client.projects()])
        with self.assertRaises(ApiError) as refused:
            self.client.delete_project(project_id, confirm_name="Not its name")
        self.assertEqual((refused.exception.status, refused.exception.code), (400, "invalid_request"))
        self.assertIn(project_id, [p["id"] for p in self.client.projects()])
        started = self.client.delete_project(project_id, confirm_name="Thrown away from Python")
        deletion = started["deletion"]
        self.assertEqual((started["dryRun"], deletion["projectId"], deletion["status"]), (False, project_id, "queued"), started)
        self.assertIn(deletion["id"], [d["id"] for d in self.client.project_deletions()])
        ended = self.client.wait_for_project_deletion(deletion["id"], poll_seconds=0.5, timeout_seconds=120)
        self.assertEqual((ended["status"], ended["videosDeleted"]), ("done", 1), ended)
        self.assertNotIn(project_id, [p["id"] for p in self.client.projects()])
        with self.assertRaises(ApiError) as gone:
            self.client.project(project_id)
        self.assertEqual(gone.exception.status, 404)

    def test_06_tables_without_pandas_are_lists_of_dicts(self) -> None:
        rows = [{"a": 1}, {"a": 2}]
        made = framejury.table(rows)
        try:
            import pandas  # noqa: F401  # type: ignore[import-not-found, import-untyped, unused-ignore]
        except ImportError:
            self.assertEqual(made, rows)
        else:
            self.assertEqual(made.to_dict("records"), rows)


if __name__ == "__main__":
    unittest.main()
