// The README's agent-side section followed in an empty project outside the repository: the packed
// @s2sp/agent and @s2sp/protocol with the AI SDK and the MCP client from the registry, and the
// section's program run there with Node against the example servers.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { statedAnswers, unmetAnswers } from '../support/docs-examples/expected-output';
import { markdownExamples } from '../support/docs-examples/markdown-examples';
import { startExampleServerProcesses, type ExampleServerProcesses } from '../support/example-server-processes';
import { REPO_ROOT, run } from '../support/packed-apps';
import { mintTestToken } from '../support/tokens';

const SECTION = 'Agents on any TypeScript framework (`@s2sp/agent`)';

function sectionBlocks(): { install: string[]; program: string } {
  const blocks = markdownExamples(join(REPO_ROOT, 'README.md'), REPO_ROOT).filter((example) =>
    example.headings.some((heading) => heading.includes('@s2sp/agent')),
  );
  const installBlock = blocks.find(
    (example) =>
      example.marker?.kind === 'run-by' && example.marker.testFile === 'test/packaging/agent-package.test.ts',
  );
  const program = blocks.find((example) => example.language === 'ts' && example.code.includes("from '@s2sp/agent'"));
  assert.ok(installBlock && program, `README.md's section "${SECTION}" has its install block and its program`);
  const install = installBlock.code
    .split('\n')
    .filter((line) => line.startsWith('npm install '))
    .map((line) => line.split(/\s+/).slice(2));
  assert.equal(install.length, 1, installBlock.code);
  return { install: install[0], program: program.code };
}

describe("@s2sp/agent installed from its tarball into an empty project, as the README's section says", () => {
  const { install, program } = sectionBlocks();
  const packDir = mkdtempSync(join(tmpdir(), 's2sp-agent-packs-'));
  const projectDir = mkdtempSync(join(tmpdir(), 's2sp-agent-project-'));
  let servers: ExampleServerProcesses | undefined;

  before(
    async () => {
      await run('npm', ['pack', '-w', 'libs/protocol', '-w', 'libs/agent', '--pack-destination', packDir], REPO_ROOT);
      const packages = install.flatMap((word) => {
        const braces = /\{([^}]+)\}/.exec(word);
        const names = braces ? braces[1].split(',').map((name) => word.replace(braces[0], name)) : [word];
        return names.map((name) => name.replace('/tmp/s2sp-packs', packDir));
      });
      writeFileSync(
        join(projectDir, 'package.json'),
        JSON.stringify({ name: 'my-agent', private: true, type: 'module' }),
      );
      await run('npm', ['install', '--prefer-offline', ...packages], projectDir);
      servers = await startExampleServerProcesses();
    },
    { timeout: 600_000 },
  );
  after(async () => {
    await servers?.stop();
    rmSync(packDir, { recursive: true, force: true });
    rmSync(projectDir, { recursive: true, force: true });
  });

  test('installs nothing of Nest, and its program charts the wind alerts and prints the tokens kept out', async () => {
    assert.equal(existsSync(join(projectDir, 'node_modules', '@nestjs')), false, 'Nest was installed');
    const code = program
      .replace('http://127.0.0.1:3101', servers!.weatherUrl)
      .replace('http://127.0.0.1:3102', servers!.statsUrl);
    writeFileSync(join(projectDir, 'agent.mts'), code);
    const env = {
      WEATHER_TOKEN: await mintTestToken({ subject: 'alice', audience: 'weather-server', scopes: ['weather:read'] }),
      STATS_TOKEN: await mintTestToken({
        subject: 'alice',
        audience: 'stats-server',
        scopes: ['stats:chart', 's2sp:data:read', 'weather:read'],
      }),
    };
    // Node runs TypeScript by stripping its types, as a reader following the section would.
    const output = await run(process.execPath, ['agent.mts'], projectDir, 120_000, env);
    assert.deepEqual(unmetAnswers(statedAnswers(code, '//'), output), [], output);
  });
});
