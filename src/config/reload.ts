// What makes a running gateway read its YAML again: SIGHUP, or the file changing on disk.
// Editors save by writing a new file and renaming it over the old one, so the folder is
// watched (by file name), and a burst of events becomes one reload after a quiet moment.
// A save that leaves the text as it was reloads nothing.
import { createHash } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export type ReloadTrigger = 'sighup' | 'file';

export interface ConfigWatchOptions {
  file: string;
  /** Loads, validates and applies the file (or rejects it); called once per burst. */
  reload(trigger: ReloadTrigger): void;
  /** Quiet time after the last file event before reloading (default 250 ms). */
  debounceMs?: number;
  /** Reload on SIGHUP (default true). */
  sighup?: boolean;
  /** Reload when the file changes (default true). */
  watchFile?: boolean;
  /** A reload that threw (a bug, not an invalid file: that is refused and audited); default: printed to stderr. */
  onError?(err: unknown): void;
  /**
   * configDigest(file) taken before the running config was loaded from it. A save between
   * that load and the watch's start (a store still opening, say) sends no event the watch can
   * see: with this, it is found and reloaded at once. Default: the file as the watch finds it.
   */
  loaded?: string | null;
}

export interface ConfigWatch {
  close(): void;
}

export function watchConfig(o: ConfigWatchOptions): ConfigWatch {
  const debounceMs = o.debounceMs ?? 250;
  let seen = o.loaded !== undefined ? o.loaded : configDigest(o.file);
  let timer: NodeJS.Timeout | null = null;
  let watcher: FSWatcher | null = null;
  // Runs from a signal handler or a timer: a throw there would end the process.
  const reload = (trigger: ReloadTrigger) => {
    try {
      o.reload(trigger);
    } catch (err) {
      if (o.onError) o.onError(err);
      else process.stderr.write(`warden: config reload (${trigger}) failed: ${String(err)}\n`);
    }
  };
  const onSighup = () => {
    seen = configDigest(o.file);
    reload('sighup');
  };
  const changed = () => {
    timer = null;
    const now = configDigest(o.file);
    if (now !== null && now === seen) return;
    seen = now;
    reload('file');
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(changed, debounceMs);
    timer.unref();
  };
  if (o.sighup !== false) process.on('SIGHUP', onSighup);
  if (o.watchFile !== false) {
    const name = basename(o.file);
    watcher = watch(dirname(o.file), (_event, filename) => {
      if (filename === null || filename === name) schedule();
    });
    watcher.unref();
    if (configDigest(o.file) !== seen) schedule();
  }
  return {
    close() {
      process.off('SIGHUP', onSighup);
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}

/** The file's text as a digest; null when it cannot be read (the reload reports why). */
export function configDigest(file: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}
