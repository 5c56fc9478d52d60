/**
 * Shown where a video's prompt would be when it has none: its file name was not `<prompt>-<index>`
 * and no metadata or prompt list named one. Said in words so nobody takes a blank for a prompt.
 */
export function NoPrompt() {
  return (
    <span
      className="italic text-slate-500"
      data-testid="no-prompt"
      title="No prompt was found in the file name, metadata or the project's prompt lists; the judge skips the steps that compare the video with its prompt."
    >
      no prompt
    </span>
  );
}
