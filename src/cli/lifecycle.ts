// Long-running commands stop cleanly on SIGINT/SIGTERM: close listeners, then exit.
export function closeOnSignal(close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(130);
    closing = true;
    process.stderr.write(`\nwarden: ${signal}, shutting down\n`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** Commands that keep serving return this instead of an exit code. */
export const KEEP_RUNNING = -1;
