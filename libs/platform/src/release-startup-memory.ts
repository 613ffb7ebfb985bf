import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type FullGarbageCollection = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * One memory-reducing garbage collection, for a process that has just started: while an app
 * loads its modules nearly everything it allocates survives, so V8 grows its young generation to
 * its maximum (32 MiB with Node's defaults) and keeps it until its memory reducer runs after some
 * busy moment, which an idle process may never have. Call it once the app is ready (before it
 * takes traffic: the collection stops the process for some tens of milliseconds); the young
 * generation grows again only if the load needs it.
 *
 * V8 hands out this collection only to contexts made with `--expose-gc`: the flag is set for the
 * one context that fetches the function and cleared again, so the process's other contexts do not
 * gain a `gc` global.
 * @public
 */
export function releaseStartupMemory(): void {
  setFlagsFromString('--expose-gc');
  let collect: FullGarbageCollection;
  try {
    collect = runInNewContext('gc') as FullGarbageCollection;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
