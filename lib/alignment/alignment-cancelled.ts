/** The error an alignment throws when its job is cancelled: the job records it as cancelled, not failed. */
export class AlignmentCancelled extends Error {}
