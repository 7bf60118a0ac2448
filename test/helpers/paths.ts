import { fileURLToPath } from 'node:url';

/** The compiled CLI, as `npm start` and the bin run it. */
export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
/** The repository's examples folder (tests run from dist/test, examples stay at the root). */
export const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));
