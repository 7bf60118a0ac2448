import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAnnotate } from '../../bench/instructions/annotate.js';

// The shape of `callgrind_annotate --inclusive=yes` output, trimmed from a real dump of Warden's main thread.
const ANNOTATED = `--------------------------------------------------------------------------------
Profile data file 'warden-1.callgrind.10105.1-01' (creator: callgrind-3.19.0)
--------------------------------------------------------------------------------
Events recorded:  Ir
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
426,002,207 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                    file:function
--------------------------------------------------------------------------------
426,002,207 (100.0%)  /home/iojs/build/ws/out/../deps/uv/src/unix/core.c:uv_run [/usr/bin/node]
359,959,418 (84.50%)  /home/iojs/build/ws/out/../deps/uv/src/unix/linux.c:uv__io_poll [/usr/bin/node]
 46,669,191 (10.96%)  /home/iojs/build/ws/out/../deps/uv/src/unix/loop-watcher.c:uv__run_check [/usr/bin/node]
 19,303,386 ( 4.53%)  /home/iojs/build/ws/out/../deps/uv/src/timer.c:uv__run_timers [/usr/bin/node]
     15,120 ( 0.00%)  /home/iojs/build/ws/out/../deps/uv/src/queue.h:uv__run_check [/usr/bin/node]
`;

test('the request phases are the I/O and check phases, timers left out', () => {
  assert.deepEqual(parseAnnotate(ANNOTATED), { total: 426_002_207, requestPhases: 359_959_418 + 46_669_191 });
});

test('output without the loop phases or the totals is refused, not read as zero', () => {
  assert.throws(() => parseAnnotate(ANNOTATED.replace(/^.*PROGRAM TOTALS.*$/m, '')), /PROGRAM TOTALS/);
  assert.throws(() => parseAnnotate(ANNOTATED.replace(/^.*uv__(io_poll|run_check) \[.*$/gm, '')), /neither uv__io_poll nor uv__run_check/);
});
