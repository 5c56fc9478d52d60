/**
 * `components/tasks/<id>/views.ts`'s default export: the screens' parts a task brings, read by the
 * core's pages through components/tasks/views.ts, never by name.
 */
import type { ComponentType } from "react";
import type { CellFocus, StepRow } from "@/components/videos/judge-scores-panel";
import type { DefaultsFormProps, RunSettingsFormProps } from "./run-settings-form";

/** Props every task's outputs view gets: the run's steps for the video, and the video page's frame focus. */
export interface OutputsViewProps {
  steps: StepRow[];
  keyFrameCount: number;
  onFocus: (focus: CellFocus) => void;
}
import type { PickedFile } from "../import/collect-files";
import type { SubjectViewProps } from "./subject-view-props";
import type { TaskDeclaration } from "@/lib/task-modules/task-declaration";

export interface TaskViews {
  /** The folder's id (an entry of TASK_FOLDER_IDS). */
  id: string;
  /** How the video page reads a run's step outputs as text, by pipeline id (none: no outputs section). */
  outputs?: Readonly<Record<string, ComponentType<OutputsViewProps>>>;
  /** How the video page's run header describes a run's stored settings (untrusted JSON), by pipeline id (none: no settings line). */
  runSettings?: Readonly<Record<string, ComponentType<{ settings: unknown }>>>;
  /** The Judge page's run form controls for a pipeline (its item set, its settings), by pipeline id; none: the project's defaults. */
  runSettingsForms?: Readonly<Record<string, ComponentType<RunSettingsFormProps>>>;
  /** Cards beside the run form (owners) that save the project's defaults for a pipeline's new runs, by pipeline id. */
  defaultsForms?: Readonly<Record<string, { title: string; Form: ComponentType<DefaultsFormProps> }>>;
  /** The Import page's sections for the task's own files (item sets) dropped along with videos, in order. */
  importPanels?: readonly ImportPanelView[];
  /**
   * How the review screen shows an item queue's subject beside its targets, by the key the queue item API gives
   * it (the task's queue type's `subjectKey`, lib/queues/queue-type.ts).
   */
  subjectViews?: Readonly<Record<string, ComponentType<SubjectViewProps>>>;
  /**
   * The new-queue form's controls for a queue over one of the task's runs, by the task's item queue type id
   * (lib/queues/queue-type.ts): they narrow the queue's items (the scope's `options`).
   */
  queueOptionsForms?: Readonly<Record<string, ComponentType<QueueOptionsFormProps>>>;
  /** The review screen's keys for an item queue's subject, by the subject's key (`subjectViews`'): a pair that sets one of its targets. */
  subjectValueKeys?: Readonly<Record<string, SubjectValueKeys>>;
}

/** Props of a task's new-queue options controls. */
export interface QueueOptionsFormProps {
  /** The chosen run's task. */
  task: TaskDeclaration;
  /** What the scope offers in this project (its module's `formChoices`; null when it has none). */
  choices: unknown;
  /** The options as the create-queue body sends them under the scope's key. */
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
}

/** A pair of review-screen keys that sets one target of the item's subject to 1 or to 0 (also 1 / 0 on the focused target). */
export interface SubjectValueKeys {
  /** The key that sets 1, and the one that sets 0. */
  one: string;
  zero: string;
  /** The item's target they set: the one of this category. */
  category: string;
  /** The shortcut list's line: the keys, and what they do. */
  help: [string, string];
}

/** A file an import panel claimed, with what its claim said of it (say, which kind of set it is). */
export interface ClaimedFile {
  picked: PickedFile;
  claim: unknown;
}

/**
 * A section of the Import page (components/import/import-panel.tsx) for files of one task: a dropped file
 * that is no video, prompt list or metadata file goes to the first panel, in registry order, that claims it.
 */
export interface ImportPanelView {
  /** Stable key among the panels. */
  id: string;
  /** The file names the panel may claim: only their heads are read. */
  fileNames: RegExp;
  /** How many bytes of a file's head `claim` needs. */
  sniffBytes: number;
  /** What the file is to the panel (passed on as ClaimedFile.claim), or null when it is not the panel's. */
  claim(relativePath: string, head: string): unknown;
  /** The files it takes, for the drop zone's list of what may come along ("question sets (JSONL, JSON or CSV)"). */
  description?: string;
  /** The section, shown below the progress bar, with the files it claimed so far. */
  Panel: ComponentType<{ projectId: string; files: readonly ClaimedFile[] }>;
}
