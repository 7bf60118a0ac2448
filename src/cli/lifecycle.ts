// Long-running commands stop cleanly on SIGINT/SIGTERM: `close` drains and closes, then the
// process exits. A second signal calls `close` again, which ends the gateway's grace period at
// once (streams still open get their shutdown error); a third exits on the spot.
export function closeOnSignal(close: () => Promise<void>): void {
  let signals = 0;
  const stop = (signal: string) => {
    signals++;
    if (signals > 2) process.exit(130);
    if (signals === 2) {
      process.stderr.write(`warden: ${signal} again, ending the requests still in flight now\n`);
      void close();
      return;
    }
    process.stderr.write(`\nwarden: ${signal}, shutting down\n`);
    close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`warden: shutdown failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** Commands that keep serving return this instead of an exit code. */
export const KEEP_RUNNING = -1;
