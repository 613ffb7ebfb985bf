import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from '../support/repo-root';
import { tempDir } from '../support/temp-dir';

const REPO_ROOT = findRepoRoot(__dirname);
// The same CLI path scripts/proto-generate.js and scripts/contracts-release.js use.
const { bufCli } = require(join(REPO_ROOT, 'scripts', 'lib', 'buf-cli.js')) as { bufCli: string };
const RELEASED_IMAGE = join(REPO_ROOT, 'proto', 'releases', 's2sp-contract.binpb');

interface BufFinding {
  type: string;
  path: string;
  message: string;
}

interface BufRun {
  status: number | null;
  findings: BufFinding[];
  output: string;
}

// buf exits with 100 when it reports findings; any other failure (bad config,
// unreadable image) is 1, so a check that could not run never looks like one
// that found the expected problem.
const FINDINGS_EXIT_STATUS = 100;

describe('buf lint and breaking-change detection on proto/', () => {
  // buf caches modules and plugins under HOME unless told otherwise; HOME may be read-only.
  let cache: { path: string; remove(): void };
  before(() => {
    cache = tempDir('s2sp-buf-cache-');
  });
  after(() => cache.remove());

  function buf(cwd: string, args: string[]): BufRun {
    const result = spawnSync(process.execPath, [bufCli, ...args, '--error-format=json'], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, BUF_CACHE_DIR: cache.path },
    });
    if (result.error) throw result.error;
    const output = `${result.stdout}${result.stderr}`;
    const findings = result.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const { type, path, message } = JSON.parse(line) as BufFinding;
        return { type, path, message };
      });
    return { status: result.status, findings, output };
  }

  /** A copy of buf.yaml and proto/ in a temp folder, edited by `edit` (given the copy's path), then handed to `run`. */
  function withProtoCopy(edit: (dir: string) => void, run: (dir: string) => void): void {
    const copy = tempDir('s2sp-buf-fixture-');
    try {
      cpSync(join(REPO_ROOT, 'buf.yaml'), join(copy.path, 'buf.yaml'));
      cpSync(join(REPO_ROOT, 'proto'), join(copy.path, 'proto'), { recursive: true });
      edit(copy.path);
      run(copy.path);
    } finally {
      copy.remove();
    }
  }

  /** Replaces the one occurrence of `from` in the copied file, so an edit that no longer applies fails instead of testing nothing. */
  function replaceOnce(dir: string, file: string, from: string, to: string): void {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    assert.equal(text.split(from).length - 1, 1, `test setup: expected exactly one ${JSON.stringify(from)} in ${file}`);
    writeFileSync(path, text.replace(from, to));
  }

  function breakingAgainstRelease(dir: string): BufRun {
    return buf(dir, ['breaking', 'proto', '--against', RELEASED_IMAGE]);
  }

  test('buf lint passes', () => {
    const run = buf(REPO_ROOT, ['lint']);
    assert.deepEqual({ status: run.status, findings: run.findings }, { status: 0, findings: [] }, run.output);
  });

  test('the lint exceptions in buf.yaml hide only the released s2sp.v1 names', () => {
    // They are per rule and file, so a new non-standard name in agent.proto or
    // tool.proto would be hidden too: lint without them must find exactly these.
    withProtoCopy(
      (dir) => {
        const lines = readFileSync(join(dir, 'buf.yaml'), 'utf8').split('\n');
        const start = lines.indexOf('  ignore_only:');
        assert.ok(start >= 0, 'test setup: no lint.ignore_only in buf.yaml');
        let end = start + 1;
        while (end < lines.length && (lines[end].startsWith('    ') || lines[end].trim() === '')) end++;
        lines.splice(start, end - start);
        writeFileSync(join(dir, 'buf.yaml'), lines.join('\n'));
      },
      (dir) => {
        const run = buf(dir, ['lint']);
        assert.equal(run.status, FINDINGS_EXIT_STATUS, run.output);
        const agent = 'proto/s2sp/v1/agent.proto';
        const tool = 'proto/s2sp/v1/tool.proto';
        const getTaskTwice = '"s2sp.v1.GetTaskRequest" is used as the request or response type for multiple RPCs.';
        assert.deepEqual(run.findings, [
          { type: 'RPC_REQUEST_RESPONSE_UNIQUE', path: agent, message: getTaskTwice },
          { type: 'RPC_REQUEST_RESPONSE_UNIQUE', path: agent, message: getTaskTwice },
          {
            type: 'RPC_REQUEST_STANDARD_NAME',
            path: agent,
            message:
              'RPC request type "GetTaskRequest" should be named "StreamTaskRequest" or "AgentServiceStreamTaskRequest".',
          },
          {
            type: 'RPC_RESPONSE_STANDARD_NAME',
            path: agent,
            message:
              'RPC response type "AgentStepResult" should be named "StreamTaskResponse" or "AgentServiceStreamTaskResponse".',
          },
          {
            type: 'RPC_REQUEST_STANDARD_NAME',
            path: tool,
            message:
              'RPC request type "ToolInvocationRequest" should be named "InvokeToolRequest" or "ToolServiceInvokeToolRequest".',
          },
          {
            type: 'RPC_RESPONSE_STANDARD_NAME',
            path: tool,
            message:
              'RPC response type "ToolInvocationResponse" should be named "InvokeToolResponse" or "ToolServiceInvokeToolResponse".',
          },
        ]);
      },
    );
  });

  test('proto/ does not break the last released contract (proto/releases/s2sp-contract.binpb)', () => {
    const run = breakingAgainstRelease(REPO_ROOT);
    assert.deepEqual({ status: run.status, findings: run.findings }, { status: 0, findings: [] }, run.output);
  });

  test('deleting a field breaks the released contract', () => {
    withProtoCopy(
      (dir) => replaceOnce(dir, 'proto/s2sp/v1/tool.proto', '  string tool_version = 3;\n', ''),
      (dir) => {
        const run = breakingAgainstRelease(dir);
        assert.equal(run.status, FINDINGS_EXIT_STATUS, run.output);
        assert.deepEqual(run.findings, [
          {
            type: 'FIELD_NO_DELETE',
            path: 'proto/s2sp/v1/tool.proto',
            message:
              'Previously present field "3" with name "tool_version" on message "ToolInvocationRequest" was deleted.',
          },
        ]);
      },
    );
  });

  test('renumbering a field breaks the released contract', () => {
    // buf knows a field by its number: the renumbered field is reported as its
    // old number deleted (the new number alone would be a compatible addition).
    withProtoCopy(
      (dir) => replaceOnce(dir, 'proto/s2sp/v1/agent.proto', '  string reason = 3;\n', '  string reason = 4;\n'),
      (dir) => {
        const run = breakingAgainstRelease(dir);
        assert.equal(run.status, FINDINGS_EXIT_STATUS, run.output);
        assert.deepEqual(run.findings, [
          {
            type: 'FIELD_NO_DELETE',
            path: 'proto/s2sp/v1/agent.proto',
            message: 'Previously present field "3" with name "reason" on message "CancelTaskRequest" was deleted.',
          },
        ]);
      },
    );
  });
});
