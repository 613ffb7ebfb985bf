// One app of the stack (dist/apps/<app>/src/main.js) as a process of its own,
// so a test can signal it and read its exit code and output.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { eventually } from './agents-stack';
import { join } from 'node:path';

const distRoot = join(__dirname, '..', '..');

export interface AppProcess {
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once `text` appears in its output; rejects with the output if it exits first or `timeoutMs` passes. */
  waitForOutput(text: string, timeoutMs: number): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL if still running (test cleanup). */
  kill(): Promise<void>;
}

export function spawnApp(entry: string, env: NodeJS.ProcessEnv): AppProcess {
  const child = spawn(process.execPath, [join(distRoot, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const appended: Array<() => void> = [];
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of appended) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    output: () => output,
    exited,
    waitForOutput(text, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(
          () => reject(new Error(`${entry}: no "${text}" within ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
        void exited.then((code) => {
          clearTimeout(timer);
          if (!output.includes(text))
            reject(new Error(`${entry} exited (${code}) before printing "${text}":\n${output}`));
        });
        appended.push(check);
        check();
      });
    },
    signal: (signal) => void child.kill(signal),
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** GET `${baseUrl}/health` on a new connection each time, as a load balancer's probe does. */
export function healthOnNewConnection(baseUrl: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    httpRequest(`${baseUrl}/health`, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(body) }));
    })
      .on('error', reject)
      .end();
  });
}

/** Polls GET /health (new connections) until it answers 503; resolves with that answer. */
export function waitForNotReady(baseUrl: string): Promise<{ status: number; json: any }> {
  return eventually(`${baseUrl}/health to report shutting down`, async () => {
    const answer = await healthOnNewConnection(baseUrl);
    return answer.status === 503 ? answer : undefined;
  });
}
