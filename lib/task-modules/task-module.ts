/**
 * The port's contract for what a task folder gives the core, in two parts: its declarations (plain data, safe in the
 * browser) and its module (server code: pipelines and what the queues, imports and reviews need of it). What the tests
 * and the demo need of it (stub rules, demo and crawl seeds, crawl pages) is its kit (lib/tasks/<id>/kit.ts,
 * testkit/task-kit.ts), which the product never reads. The composition root (lib/app-context/app-context.ts) builds the
 * built-in ones into the task catalogue (./task-catalogue.ts), which the core receives and reads, never a task by
 * name. Types only, from modules that never import this contract back (scripts/import-layers.test.ts counts type circles).
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ItemSetKind } from "./item-set-kind";
import type { LabelSetFormat, LabelSetFormatDeclaration } from "./label-set-format";
import type { ProjectAccess, ProjectAction } from "../authz/permissions";
import type { RegisteredPipeline } from "./pipeline-types";
import type { TaskDeclaration } from "./task-declaration";
import type { QueueTypeModule, ScoreQuestion } from "./queue-type-module";

/** How the Judge page's run form offers a pipeline. */
export interface RunFormDeclaration {
  /** The pipeline's name in the form's Pipeline list. */
  label: string;
  /** The endpoint picker's label ("Endpoint" when absent): say, when the endpoint is the model evaluated, not a judge. */
  endpointLabel?: string;
  /** The "whole project" option of the Videos picker ("every video with frames" when absent). */
  allVideosLabel?: string;
  /** What the run's items are called in "Started on 2 videos (4 questions)" (an item pipeline's; "item" when absent). */
  itemNoun?: string;
}

/** A link of the project's navigation bar to one of the task's pages. */
export interface TaskNavLink {
  /** Stable id for tests and the active-link match (data-testid="project-nav-<id>"). */
  id: string;
  label: string;
  /** Relative to the project, e.g. "/captions". */
  path: string;
  /** The action the page asks of the member (as e2e/pages.ts lists it): a role without it sees no link. */
  action: ProjectAction;
  /** The core link it follows (e.g. "adjudication"); links after the same one keep the registry's order. */
  after: string;
}

/** `lib/tasks/<id>/declarations.ts`'s default export. */
export interface TaskFolderDeclarations {
  /** The folder's id (an entry of TASK_FOLDER_IDS). */
  id: string;
  /** What each of the folder's pipelines scores, one declaration per pipeline id. */
  tasks: readonly TaskDeclaration[];
  /** The folder's pipelines the Judge page's run form offers, by pipeline id, in order (one left out is started elsewhere). */
  runForm?: Readonly<Record<string, RunFormDeclaration>>;
  /** Links the project's navigation bar shows for the task's own pages. */
  navLinks?: readonly TaskNavLink[];
  /**
   * The one project whose tasks these are (a task a project defined as data, lib/rubrics): offered in that
   * project's Judge form only. Built-in task folders leave it out.
   */
  projectId?: string;
  /**
   * The task's own label file formats as the label-set import form and the upload's `format` field know them
   * (each needs its importer in the module's `labelSetFormats`, by the same id).
   */
  labelSetFormats?: readonly LabelSetFormatDeclaration[];
  /**
   * The task's page where one run's results are read, by pipeline id: the run page links to it
   * (`<path>?runId=<id>`) beside "all runs".
   */
  runResultsLinks?: Readonly<Record<string, RunResultsLink>>;
  /** What the task's items are called, one and many (deletion counts speak of "2 captions and questions"). */
  itemNouns?: readonly { one: string; many: string }[];
}

/** A link from the run page to where a task shows the run's results. */
export interface RunResultsLink {
  /** The page under the project, say "/results" (the link adds `?runId=`). */
  path: string;
  label: string;
  /** The link's data-testid. */
  testId: string;
}

/**
 * A list of a task's items the video page shows under the video (say, the captions of the video), built by the
 * task's module: plain data, rendered by the core page as a card of links.
 */
export interface VideoItemList {
  /** The card's title, with the count, say "Notes of this video (3)". */
  title: string;
  /** The list's data-testid, and each row's. */
  testId: string;
  itemTestId: string;
  items: readonly { id: string; href: string; tag: string | null; model: string | null; text: string }[];
  /** A link to every item of the video on the task's page, when the card shows only some. */
  more: { href: string; label: string } | null;
}

/**
 * Targets of a pipeline a judge alignment (lib/alignment) may tune on their own, beyond the video-level ones the core
 * finds by itself: targets scored per key frame, per cluster or per item. Each names the step whose score rows hold
 * the target's values (category = the target's id) and the templated step whose prompt the optimizer rewrites.
 */
export interface AlignableTargetDeclaration {
  pipeline: string;
  /** Declared target ids of one scope (key_frame, cluster or item). */
  targets: readonly string[];
  /** The step whose scores are the target's values (a computed step may follow the judge's, as caption length rules do). */
  valueStep: string;
  /** The templated step whose template the optimizer rewrites. */
  rewriteStep: string;
  /** The rewritten template where the step picks one per item (QA's decide: the open questions' judge); the step's own when absent. */
  rewriteTemplateId?: string;
}

/** `lib/tasks/<id>/module.ts`'s default export. */
export interface TaskModule {
  /** The folder's id (an entry of TASK_FOLDER_IDS). */
  id: string;
  /** The pipelines the engine can run for the task; each carries its declaration as `task`. */
  pipelines: readonly RegisteredPipeline[];
  /**
   * One of the task's run results as a blind reviewer may see it: every judge value withheld, what was
   * imported kept (lib/visibility's withheldResult and redactResultsFor apply it; a task without one
   * cannot show its results to a blind reviewer). Given results of the shape the task's own reads return.
   */
  redactResult?(result: unknown): unknown;
  /** Review-queue types for runs whose subjects are items (a caption, an answer), beside the core's video queue types. */
  queueTypes?: readonly QueueTypeModule[];
  /**
   * What each judge score of one video in one of the task's runs asked, by score category (VBench-2.0's questions,
   * each with the frames it was asked with): a review queue shows the question, not the target's name, so the
   * reviewer answers what the judge was asked. Categories left out show their target's name.
   */
  scoreQuestions?(prisma: PrismaClient, runId: string, videoId: string): Promise<ReadonlyMap<string, ScoreQuestion>>;
  /** The kinds of item set the task imports (a file of items attached to the project's videos), each with its importer. */
  itemSetKinds?: readonly ItemSetKind[];
  /** The task's own label file formats (the generic CSV/JSONL and VBench's results are the core's). */
  labelSetFormats?: readonly LabelSetFormat[];
  /**
   * How the judge-setups comparison (lib/calibration) names a run's stored settings (untrusted JSON) of one of
   * the task's pipelines: its aggregation and its verdict rule, null where there is none (none: both null).
   */
  setupSettings?(settings: unknown): { aggregation: string | null; verdict: string | null };
  /**
   * The task's items of one video for the video page (lib/tasks/<id>/video-items.ts), of the access's project;
   * null when the video has none.
   */
  videoItemList?: (prisma: PrismaClient, access: ProjectAccess, videoId: string) => Promise<VideoItemList | null>;
  /** Targets judged per key frame, cluster or item that an alignment may tune on their own (see AlignableTargetDeclaration). */
  alignableTargets?: readonly AlignableTargetDeclaration[];
}
