/** Aborted by the first Ctrl-C (or SIGTERM), so work stops cleanly; a second Ctrl-C exits at once. */
export function stopOnInterrupt(): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write("\nstopping after the files under way (Ctrl-C again to quit now)…\n");
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return controller.signal;
}
