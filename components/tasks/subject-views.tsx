"use client";

import type { ComponentType } from "react";
import { RubricItemSubjectView } from "@/components/rubrics/rubric-item-subject";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import type { SubjectViewProps } from "./subject-view-props";

/**
 * Every task's subject views, by the queue item's key (read at render, so a registered toy task's count), and
 * the rubric tasks' item view (tasks defined as data have no views of their own).
 */
function subjectViews(): Record<string, ComponentType<SubjectViewProps>> {
  return Object.assign(
    { rubricItem: RubricItemSubjectView },
    ...GENERATED_TASK_VIEWS.map((views) => views.subjectViews ?? {}),
  );
}

/** The subjects a queue item carries (a caption, an answer), each shown by its task's view; nothing for a video item. */
export function SubjectViews({ item, blind }: { item: Record<string, unknown>; blind: boolean }) {
  return (
    <>
      {Object.entries(subjectViews()).map(([key, View]) =>
        item[key] ? <View key={key} subject={item[key]} blind={blind} /> : null,
      )}
    </>
  );
}
