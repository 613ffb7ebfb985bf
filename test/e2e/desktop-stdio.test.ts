import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freePort } from '../support/free-port';
import { jsonOf, textOf } from '../support/mcp-client';
import { tempDir } from '../support/stack';

const REPO_ROOT = join(__dirname, '..', '..', '..');

interface DesktopServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The `mcpServers` block of the README's "Desktop MCP clients (stdio)" section, exactly as a user copies it. */
function readmeDesktopConfig(): Record<string, DesktopServerEntry> {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Desktop MCP clients (stdio)'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the README has a JSON configuration in its Desktop section');
  return (JSON.parse(block[1]) as { mcpServers: Record<string, DesktopServerEntry> }).mcpServers;
}

/**
 * Spawns an entry as a desktop client does (its own environment plus the entry's `env`),
 * with /path/to/repo filled in and the documented ports and directories moved to free
 * ones so that parallel test runs do not collide.
 */
function spawnEntry(
  entry: DesktopServerEntry,
  moves: Record<string, string>,
  cwd: string,
): { client: Client; transport: StdioClientTransport; stderr: () => string } {
  const fill = (text: string) => text.split('/path/to/repo').join(REPO_ROOT);
  const env: Record<string, string> = { ...getDefaultEnvironment(), LOG_LEVELS: 'error,warn' };
  for (const [name, value] of Object.entries(entry.env)) env[name] = moves[name] ?? fill(value);
  const transport = new StdioClientTransport({
    command: entry.command === 'node' ? process.execPath : entry.command,
    args: entry.args.map(fill),
    env,
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { client: new Client({ name: 'desktop-e2e', version: '1.0.0' }), transport, stderr: () => stderr };
}

describe("the README's desktop setup: both servers over stdio, as Claude Desktop runs them", () => {
  test('get_alerts issues a resource_url that draw_chart fetches, and the chart counts the chosen rows by a body column', async () => {
    const config = readmeDesktopConfig();
    assert.ok(config.weather && config.stats, 'the README configures "weather" and "stats"');
    const dirs = {
      cwd: tempDir('s2sp-desktop-'),
      weather: tempDir('s2sp-desktop-weather-'),
      stats: tempDir('s2sp-desktop-stats-'),
    };
    const weatherPort = String(await freePort());
    const moves = {
      WEATHER_PORT: weatherPort,
      STATS_PORT: '0',
      WEATHER_DATA_DIR: dirs.weather.path,
      STATS_DATA_DIR: dirs.stats.path,
    };
    const weather = spawnEntry(config.weather, moves, dirs.cwd.path);
    const stats = spawnEntry(config.stats, moves, dirs.cwd.path);
    try {
      await weather.client.connect(weather.transport);
      await stats.client.connect(stats.transport);

      // What the README's table of example servers lists, as a desktop client discovers it over stdio.
      const [weatherTools, statsTools] = [
        (await weather.client.listTools()).tools,
        (await stats.client.listTools()).tools,
      ];
      assert.deepEqual(
        weatherTools.map((tool) => tool.name),
        ['get_alerts'],
      );
      assert.deepEqual(
        statsTools.map((tool) => tool.name),
        ['draw_chart'],
      );
      const chartParameters = Object.keys(statsTools[0].inputSchema.properties ?? {}).sort();
      assert.deepEqual(chartParameters, [
        'abstract_data',
        'body_data',
        'column_mapping',
        'confirm',
        'group_by',
        'resource_url',
        'summarize',
        'title',
      ]);

      const alerts = jsonOf<Array<Record<string, unknown>>>(
        await weather.client.callTool({ name: 'get_alerts', arguments: { area: 'CA' } }),
      );
      const answer = jsonOf(
        await weather.client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
      );
      assert.match(answer.resource_url, new RegExp(`^http://127\\.0\\.0\\.1:${weatherPort}/s2sp/data/`));
      assert.ok(answer.body_domains.includes('severity'), 'severity stays on the data plane');
      const chosen = (answer.abstract as Array<{ _row_id: number; event: string }>).filter((row) =>
        row.event.includes('Wind'),
      );
      assert.ok(chosen.length > 0 && chosen.length < answer.total_rows, 'the agent picks some of the rows');

      const chart = await stats.client.callTool({
        name: 'draw_chart',
        arguments: { abstract_data: JSON.stringify(chosen), resource_url: answer.resource_url, group_by: 'severity' },
      });
      assert.ok(!chart.isError, `draw_chart failed: ${chart.isError ? textOf(chart) : ''}\n${stats.stderr()}`);
      const expected = new Map<string, number>();
      for (const row of chosen) {
        const severity = String(alerts[row._row_id].severity);
        expected.set(severity, (expected.get(severity) ?? 0) + 1);
      }
      const summary = /^Charted (\d+) rows? by severity in \d+ bars?: (.*)\.$/.exec(textOf(chart));
      assert.ok(summary, textOf(chart));
      assert.equal(Number(summary[1]), chosen.length);
      const charted = new Map(
        summary[2]
          .split(', ')
          .map((entry) => [entry.slice(0, entry.lastIndexOf(' ')), Number(entry.slice(entry.lastIndexOf(' ') + 1))]),
      );
      assert.deepEqual(
        charted,
        expected,
        'the bars count the chosen alerts by their severity, a column only the data plane carried',
      );
    } finally {
      await stats.client.close().catch(() => undefined);
      await weather.client.close().catch(() => undefined);
      for (const dir of Object.values(dirs)) dir.remove();
    }
  });
});
