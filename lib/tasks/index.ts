/**
 * The judge tasks FrameJury runs, by folder id: the one list of them. A task is its folders
 * (`lib/tasks/<id>/`, `components/tasks/<id>/`, `prompts/<id>/`) and its line here;
 * `scripts/generate-task-registry.mjs` (run by `npm install` and before build, start, test and
 * typecheck) writes the import maps under lib/generated/tasks/ from this list, because a browser bundle
 * may import a task's declarations and views but never its server modules.
 */
export const TASK_FOLDER_IDS = ["hallucination", "captions", "qa", "construction", "vbench2"] as const;
