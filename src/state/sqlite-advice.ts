// SQLite's errors as the store reports them: code and message, and what an operator should do
// about a store that cannot be opened, by SQLite's (or the file system's) error code: the
// message names the file, this says what to do with it.

/** SQLite's `SQLITE_…` code or Node's `E…` code of an error, when it has one. */
export function codeOf(e: unknown): string | null {
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A sentence to append to "cannot open the SQLite store <file>: <error>", or ''. */
export function adviceFor(e: unknown): string {
  const code = codeOf(e) ?? '';
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return '. The file is damaged or not a Warden store, and Warden leaves it untouched: move it aside to start with empty state (or restore a backup), or point state.sqlite at another file';
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || ['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EEXIST'].includes(code)) {
    return '. Warden must be able to create and write this file and its -wal and -shm files next to it: fix the folder or its permissions, or point state.sqlite at a writable path';
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return '. Another process holds the file locked: stop it, or give this instance a file of its own (instances share state through state.redis)';
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return '. The disk is full: free some space';
  return '';
}
