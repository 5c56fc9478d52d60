/** The runs side by side page of these runs (lib/judge/run-comparison.ts), in the order given. Plain TypeScript: the browser's runs list builds it too. */
export function compareUrlOf(projectId: string, runIds: readonly string[]): string {
  return `/projects/${projectId}/runs/compare?runs=${runIds.join(",")}`;
}
