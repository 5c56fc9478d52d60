/**
 * Presence toggles typed on a queue item and not submitted yet, kept in the browser's localStorage (keyed by
 * reviewer, queue and item) so a reload or a closed tab does not lose them; cleared once the item is submitted.
 */
const PREFIX = "framejury:presence-draft";

export const presenceDraftKey = (userId: string, queueId: string, itemId: string) =>
  `${PREFIX}:${userId}:${queueId}:${itemId}`;

/** The draft's answers by category, or null (none, unreadable, or storage unavailable). */
export function readPresenceDraft(key: string): Record<string, boolean> | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === "boolean"),
    );
  } catch {
    return null;
  }
}

export function writePresenceDraft(key: string, answers: Record<string, boolean>): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(answers));
  } catch {
    // Storage full or blocked (private mode): the toggles still live on screen until submitted.
  }
}

export function clearPresenceDraft(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // As above.
  }
}
