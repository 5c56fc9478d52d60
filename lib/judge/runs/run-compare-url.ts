/**
 * The runs side by side page of these runs (lib/run-comparison/run-comparison.ts), in the order given. Plain
 * TypeScript: the browser's runs list builds it too.
 */
export function compareUrlOf(projectId: string, runIds: readonly string[]): string {
  return `/projects/${projectId}/runs/compare?runs=${runIds.join(",")}`;
}
