import { readFileSync } from 'node:fs';
import { descendants } from '../soak/process-memory';

/** One app process of a running `npm start` stack. */
export interface StackApp {
  name: string;
  pid: number;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** The app that `pid` runs (`weather-server`, `gateway`…), judged by its entry point, or undefined. */
export function appNameOf(pid: number): string | undefined {
  return /apps\/([^/]+)\/src\/main\.js/.exec(commandLine(pid))?.[1];
}

/** The app processes started by the start-all process `stackPid`. */
export function stackApps(stackPid: number): StackApp[] {
  return descendants(stackPid).flatMap((pid) => {
    const name = appNameOf(pid);
    return name ? [{ name, pid }] : [];
  });
}
