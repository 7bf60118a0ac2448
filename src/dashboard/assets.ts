// The page's files, read once from src/dashboard/page: hand-written HTML, CSS and browser
// modules, served as they are (no bundler, nothing built or downloaded at run time). The
// compiled gateway runs from dist/src/dashboard, so the folder is looked for beside this
// module first and then in the source tree the package ships with.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DashboardError } from './errors.js';

export interface PageAsset {
  body: Buffer;
  contentType: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const CANDIDATES = [new URL('./page/', import.meta.url), new URL('../../../src/dashboard/page/', import.meta.url)];

export class DashboardAssets {
  private constructor(private readonly files: ReadonlyMap<string, PageAsset>) {}

  /** Reads every page file; throws `dashboard_assets_missing` when no candidate folder holds index.html. */
  static load(dirs: readonly URL[] = CANDIDATES): DashboardAssets {
    const dir = dirs.map((u) => fileURLToPath(u)).find((d) => existsSync(join(d, 'index.html')));
    if (!dir) throw new DashboardError('dashboard_assets_missing', `dashboard page files not found (looked in ${dirs.map((u) => fileURLToPath(u)).join(', ')})`);
    const files = new Map<string, PageAsset>();
    for (const name of readdirSync(dir)) {
      const contentType = TYPES[extname(name)];
      if (contentType) files.set(name, { body: readFileSync(join(dir, name)), contentType });
    }
    return new DashboardAssets(files);
  }

  /** The file for a request path: `/dashboard` is the page, `/dashboard/<name>` one of its files. */
  get(path: string): PageAsset | null {
    if (path === '/dashboard') return this.files.get('index.html') ?? null;
    if (!path.startsWith('/dashboard/')) return null;
    return this.files.get(path.slice('/dashboard/'.length)) ?? null;
  }
}

let loaded: DashboardAssets | DashboardError | null = null;

/** The page files, read once per process (many gateways start in one test run). */
export function dashboardAssets(): DashboardAssets {
  if (loaded === null) {
    try {
      loaded = DashboardAssets.load();
    } catch (e) {
      if (!(e instanceof DashboardError)) throw e;
      loaded = e;
    }
  }
  if (loaded instanceof DashboardError) throw loaded;
  return loaded;
}

/** Headers for every page file: the page talks to its own origin only and may not be framed. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};
