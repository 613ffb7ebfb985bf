import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const CRUISER = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The rule violations dependency-cruiser finds in `apps/` and `libs/` of `cwd` with the project's rules. */
function violationsIn(cwd: string): Violation[] {
  const output = execFileSync(
    process.execPath,
    [CRUISER, 'apps', 'libs', '--config', CONFIG, '--output-type', 'json'],
    { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  test('the workspace keeps them: no cycle, no lib importing an app, no deep import, no upward import', () => {
    assert.deepEqual(
      violationsIn(ROOT).map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`),
      [],
    );
  });

  test('each rule fails a tree that breaks it', () => {
    const dir = mkdtempSync(join(tmpdir(), 's2sp-layering-'));
    try {
      writeTree(dir, {
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            baseUrl: '.',
            paths: { '@s2sp/platform': ['./libs/platform/src'], '@s2sp/core': ['./libs/s2sp/src'] },
          },
        }),
        'libs/platform/src/index.ts': "export * from './clock';\n",
        // Upward: platform sits below core.
        'libs/platform/src/clock.ts': "import { tool } from '@s2sp/core';\nexport const clock = tool;\n",
        'libs/s2sp/src/index.ts': "export * from './tool';\nexport * from './grpc';\n",
        // gRPC under S2spModule.
        'libs/s2sp/src/grpc.ts': "import { Metadata } from '@grpc/grpc-js';\nexport const grpc = new Metadata();\n",
        // A lib importing an app.
        'libs/s2sp/src/tool.ts': "import { main } from '../../../apps/agents/src/main';\nexport const tool = main;\n",
        // A cycle.
        'libs/s2sp/src/a.ts': "import { b } from './b';\nexport const a = b;\n",
        'libs/s2sp/src/b.ts': "import { a } from './a';\nexport const b = a;\n",
        // Nest on the agent side.
        'libs/agent/src/index.ts': "import { Injectable } from '@nestjs/common';\nexport const agent = Injectable;\n",
        // A deep import past the package's entry.
        'apps/agents/src/main.ts': "import { a } from '../../../libs/s2sp/src/a';\nexport const main = a;\n",
      });
      const broken = new Set(violationsIn(dir).map((violation) => violation.rule.name));
      for (const rule of [
        'no-circular',
        'lib-imports-app',
        'deep-import-from-app',
        'below-platform',
        'core-without-grpc',
        'agent-side-without-nest',
      ]) {
        assert.ok(broken.has(rule), `${rule} should fail; failed: ${[...broken].join(', ')}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
