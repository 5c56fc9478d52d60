import ReactMarkdown from "react-markdown";

/**
 * Markdown written by a project's owners (guidelines), rendered as React elements. react-markdown never
 * injects HTML: raw HTML in the text (a `<script>`, an `onerror=`) is shown as text, and link and image
 * URLs go through its URL filter (`javascript:` and other unsafe protocols are dropped).
 */
export function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div
      className="flex flex-col gap-2 text-sm leading-relaxed text-slate-800 [&_a]:text-indigo-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:text-base [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-medium [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5"
      data-testid={testId}
    >
      <ReactMarkdown>{text}</ReactMarkdown>
    </div>
  );
}

/** A project's and a queue's guidelines, the project's first; nothing when neither has any. */
export function Guidelines({ project, queue }: { project: string; queue: string }) {
  if (!project && !queue) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="guidelines">
      {project && (
        <div>
          <h3 className="mb-1 text-xs font-medium uppercase text-slate-500">Project guidelines</h3>
          <Markdown text={project} testId="project-guidelines" />
        </div>
      )}
      {queue && (
        <div>
          <h3 className="mb-1 text-xs font-medium uppercase text-slate-500">Queue guidelines</h3>
          <Markdown text={queue} testId="queue-guidelines" />
        </div>
      )}
    </div>
  );
}
