/** Props every task's subject view gets: the queue item's subject under its key, and whether the judge is hidden. */
export interface SubjectViewProps {
  subject: unknown;
  blind: boolean;
}
