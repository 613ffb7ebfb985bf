// Python for the interop tests: whether python3 is here, running a script with
// JSON on stdin, and a virtual environment holding the official MCP SDK.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot } from './repo-root';

/** The official Python MCP SDK release the interop tests install. */
export const PYTHON_MCP_VERSION = '2.3.0';

/**
 * Why Python tests cannot run here (python3 missing or broken), or undefined when they can.
 * With S2SP_REQUIRE_PYTHON=1 (as .ci/run sets) a missing Python is a failure, not a skip.
 */
export function python3SkipReason(): string | undefined {
  const reason = python3Problem();
  if (reason !== undefined && process.env.S2SP_REQUIRE_PYTHON === '1')
    throw new Error(`${reason}; required here (S2SP_REQUIRE_PYTHON=1: install python3 and python3-venv)`);
  return reason;
}

function python3Problem(): string | undefined {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error) return `python3 is not available (${probe.error.message}): the Python clients cannot run here`;
  if (probe.status !== 0) return `python3 --version failed (exit ${probe.status}): the Python clients cannot run here`;
  return undefined;
}

/** A Python script of test/interop, read from the source tree (scripts are not compiled into dist/). */
export function interopScript(name: string): string {
  return join(findRepoRoot(__dirname), 'test', 'interop', name);
}

export interface ProcessRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` asynchronously (servers under test run in this process) with `stdin` written to it. */
export function runProcess(command: string, args: readonly string[], stdin = ''): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Runs a script and parses what it printed as JSON; rejects with its stderr when it printed none. */
export async function runJsonScript<T = any>(
  command: string,
  args: readonly string[],
  stdin: unknown,
): Promise<ProcessRun & { output: T }> {
  const run = await runProcess(command, args, JSON.stringify(stdin));
  try {
    return { ...run, output: JSON.parse(run.stdout) as T };
  } catch {
    throw new Error(`${args[0]} printed no JSON (exit ${run.exitCode}): ${run.stderr}`);
  }
}

/**
 * The python executable of a virtual environment holding the official MCP SDK
 * (`mcp` at PYTHON_MCP_VERSION). The environment lives under the OS temp dir,
 * keyed by that version, and is reused by later runs: it is created once, and
 * a marker written after a successful install tells later runs it is complete
 * (a half-made one is removed and made again).
 */
export async function pythonWithMcpSdk(): Promise<string> {
  const venv = join(tmpdir(), `s2sp-interop-python-mcp-${PYTHON_MCP_VERSION}`);
  const python = join(venv, 'bin', 'python');
  const installed = join(venv, '.s2sp-installed');
  if (existsSync(installed)) return python;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(venv, { recursive: true });
  for (const [command, args] of [
    ['python3', ['-m', 'venv', venv]],
    // One retry per download: where the default index is unreachable and a local mirror serves
    // the packages (CI machines), pip's default retries with backoff took minutes, not seconds.
    [
      python,
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--retries',
        '1',
        `mcp==${PYTHON_MCP_VERSION}`,
      ],
    ],
  ] as const) {
    const run = await runProcess(command, args);
    if (run.exitCode !== 0)
      throw new Error(`${command} ${args.join(' ')} failed (exit ${run.exitCode}): ${run.stderr}`);
  }
  writeFileSync(installed, `mcp==${PYTHON_MCP_VERSION}\n`);
  return python;
}
