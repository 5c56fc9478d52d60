interface Download {
  label: string;
  href: string;
  /** The file's name; the export routes send the same name in `Content-Disposition`. */
  filename: string;
  kind?: "csv" | "jsonl" | "json";
}

/**
 * Export buttons as plain links to the GET routes (session cookie, the routes' own permission checks): the
 * browser saves the streamed response straight to disk through its own downloads (progress, cancel, a
 * broken-off download marked failed), so a large export never passes through the page's memory.
 */
export function ExportButtons({ downloads }: { downloads: Download[] }) {
  return (
    <div className="flex flex-wrap gap-2 text-sm">
      {downloads.map((d) => (
        <a
          key={d.label}
          href={d.href}
          download={d.filename}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50"
          data-testid="export-link"
        >
          {d.label}
        </a>
      ))}
    </div>
  );
}
