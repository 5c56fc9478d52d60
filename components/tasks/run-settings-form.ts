/**
 * What a task's controls in the Judge page's run form get and give (TaskViews.runSettingsForms), and the cards
 * that save a pipeline's defaults for new runs (TaskViews.defaultsForms). Read by components/judge/judge-panel.tsx
 * and the Judge page through components/tasks/judge-forms.ts, never by name.
 */
import type { ReactNode } from "react";

/** What the task's controls add to a run request, and whether it can start. */
export interface RunSettingsPart {
  /** Request fields besides the pipeline, endpoint, videos, prompt versions and batch. */
  request: { itemSetId?: string; models?: string[]; settings?: Record<string, unknown> };
  /** False while the run cannot start (say, no set to judge is imported yet). */
  ready: boolean;
  /** Shown after the Start button (say, "Import a question set first"). */
  notice?: ReactNode;
  /** The pending-extraction page's query for videos the run leaves out (the frame set the run needs), without "?". */
  pendingQuery?: string;
}

export interface RunSettingsFormProps {
  projectId: string;
  /** The chosen pipeline (one the view is registered for). */
  pipeline: string;
  /** The project's defaults for new runs, by pipeline id (see lib/judge/runs/run-form.ts). */
  defaults: Readonly<Record<string, unknown>>;
  /** The controls' state, kept by the form per task folder so it survives switching pipelines; undefined at first. */
  state: unknown;
  setState(next: unknown): void;
  /** The project's endpoints that new runs may use. */
  endpoints: readonly { id: string; name: string; model: string }[];
  /** Renders the whole run form, with the controls (`fields`) where they go and what they add to the request. */
  children(run: { fields: ReactNode; part: RunSettingsPart }): ReactNode;
}

/** A card beside the run form that saves the project's defaults for a pipeline's new runs. */
export interface DefaultsFormProps {
  projectId: string;
  /** The saved defaults as the pipeline's settings schema parses them. */
  initial: unknown;
}
