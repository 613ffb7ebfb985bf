import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { ResourceWriteMode } from '@s2sp/core';

export interface BenchServerProcess {
  pid: number;
  dataPlaneOrigin: string;
  bareOrigin: string;
  /** POSTs to a control endpoint and returns its JSON answer. */
  control<T>(path: string): Promise<T>;
  stop(): Promise<void>;
}

/** Spawns bench-server-main.js and waits for its ready line. */
export async function startBenchServerProcess(
  mode: ResourceWriteMode,
  databaseUrl: string,
  maxRows: number,
  extraEnvironment: Record<string, string> = {},
): Promise<BenchServerProcess> {
  // A 1M × 30 table is about 3 GB of row objects, beyond Node's default heap limit (~4 GB with its encoding).
  const heap = maxRows >= 1_000_000 ? ['--max-old-space-size=16384'] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...heap, join(__dirname, 'bench-server-main.js'), mode, databaseUrl, String(maxRows)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...extraEnvironment },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`bench server (${mode}) exited with code ${code} before it was ready`)),
    );
  });
  const { dataPlaneOrigin, bareOrigin } = JSON.parse(firstLine) as { dataPlaneOrigin: string; bareOrigin: string };
  return {
    pid: child.pid!,
    dataPlaneOrigin,
    bareOrigin,
    async control<T>(path: string): Promise<T> {
      const response = await fetch(`${dataPlaneOrigin}${path}`, {
        method: path.startsWith('/bench/memory') ? 'GET' : 'POST',
      });
      if (!response.ok) throw new Error(`bench control ${path}: HTTP ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    async stop(): Promise<void> {
      child.stdin!.end();
      await exited;
    },
  };
}
