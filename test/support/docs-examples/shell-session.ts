// Runs the shell examples of one Markdown file in order, as a reader pasting
// them into one terminal would: variables set by one block are there in the next.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ShellResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run -s token -- …` is what the docs tell readers to type; here the stack
 * is already built, so it runs the same script (`node dist/scripts/token.js`,
 * what package.json's `token` runs after its build). Any other npm command is
 * refused: the examples must not install or rebuild.
 */
const NPM_SHIM = `npm() {
  if [ "$1" = run ] && [ "$2" = -s ] && [ "$3" = token ] && [ "$4" = -- ]; then shift 4; node "$S2SP_REPO_ROOT/dist/scripts/token.js" "$@"; return; fi
  echo "runnable docs: only \\"npm run -s token -- …\\" runs here (the stack is started once by the test), not: npm $*" >&2; return 127
}`;

/** Upper-case shell variables a block assigns (TOKEN=…, export X=…, until TASK=$(…)). */
function assignedVariables(code: string): string[] {
  return [...new Set([...code.matchAll(/(?:^|[\s;(])([A-Z_][A-Z0-9_]*)=/gm)].map((match) => match[1]))];
}

export class ShellSession {
  private readonly stateFile: string;

  constructor(
    private readonly options: {
      cwd: string;
      repoRoot: string;
      scratchDir: string;
      timeoutMs: number;
      env?: NodeJS.ProcessEnv;
    },
  ) {
    this.stateFile = join(options.scratchDir, `shell-state-${process.pid}-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(this.stateFile, '');
  }

  run(code: string): ShellResult {
    const keep = assignedVariables(code);
    const script = [
      'set -eo pipefail',
      NPM_SHIM,
      `source ${JSON.stringify(this.stateFile)}`,
      code,
      keep.length > 0 ? `declare -p ${keep.join(' ')} >> ${JSON.stringify(this.stateFile)} 2>/dev/null || true` : '',
    ].join('\n');
    const result = spawnSync('bash', ['-c', script], {
      cwd: this.options.cwd,
      env: { ...process.env, ...this.options.env, S2SP_REPO_ROOT: this.options.repoRoot },
      encoding: 'utf8',
      timeout: this.options.timeoutMs,
    });
    return {
      status: result.status,
      stdout: result.stdout ?? '',
      stderr: `${result.stderr ?? ''}${result.error ? `\n${result.error.message}` : ''}`,
    };
  }

  /** The value a block left in a variable (e.g. a token), or undefined. */
  variable(name: string): string | undefined {
    const result = spawnSync('bash', ['-c', `source ${JSON.stringify(this.stateFile)}; printf %s "\${${name}-}"`], {
      encoding: 'utf8',
    });
    return result.stdout === '' ? undefined : result.stdout;
  }

  /** Runs one `NAME=$(…)` assignment and returns the value it set. */
  assign(assignment: string): string | undefined {
    const name = /^([A-Z_][A-Z0-9_]*)=/.exec(assignment)?.[1];
    if (!name) throw new Error(`not a shell assignment: ${assignment}`);
    const result = this.run(assignment);
    if (result.status !== 0) throw new Error(`${assignment} failed (${result.status}):\n${result.stderr}`);
    return this.variable(name);
  }

  close(): void {
    rmSync(this.stateFile, { force: true });
  }
}
