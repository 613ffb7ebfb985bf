// "Chart the wind alerts in CA", as a scripted model plays it through an agent framework's own
// loop with @s2sp/agent's tools: what it does next depends only on the tool results it was sent.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { S2spAgentSession } from '@s2sp/agent';
import { chartedCounts, countsOf } from './chart-summary';
import { startExampleServerProcesses, type ExampleServerProcesses } from './example-server-processes';
import { connectMcp, jsonOf } from './mcp-client';
import type { TestTokenRequest } from './tokens';

export const WIND_CHART_OBJECTIVE = 'Chart the wind alerts in CA.';

// The scopes each server's tools need: draw_chart's server fetches the body from the weather server
// on the caller's behalf.
const WEATHER_TOKEN: TestTokenRequest = { audience: 'weather-server', scopes: ['weather:read'] };
const STATS_TOKEN: TestTokenRequest = {
  audience: 'stats-server',
  scopes: ['stats:chart', 's2sp:data:read', 'weather:read'],
};

/** The weather and stats servers' MCP clients, as an agent connects them. */
export async function connectExampleServers(urls: {
  weatherUrl: string;
  statsUrl: string;
}): Promise<{ weather: Client; stats: Client; close(): Promise<void> }> {
  const weather = await connectMcp(urls.weatherUrl, 'agent-framework-test', WEATHER_TOKEN);
  const stats = await connectMcp(urls.statsUrl, 'agent-framework-test', STATS_TOKEN);
  const close = async () => {
    await Promise.all([weather.close(), stats.close()]);
  };
  return { weather, stats, close };
}

/** The model's next move. */
export type ScriptedMove = { tool: string; args: Record<string, unknown> } | { answer: string };

/**
 * The scripted model: first get_alerts for CA with only `event` in view; then draw_chart of the
 * rows whose event mentions wind, by handle and row ids; then a final answer quoting the chart.
 */
export function windChartMove(toolResults: readonly string[]): ScriptedMove {
  if (toolResults.length === 0) return { tool: 'get_alerts', args: { area: 'CA', abstract_domains: 'event' } };
  if (toolResults.length === 1) {
    const answer = JSON.parse(toolResults[0]) as {
      handle: string;
      abstract: Array<{ _row_id: number; event: string }>;
    };
    const wind = answer.abstract.filter((row) => /wind/i.test(row.event)).map((row) => row._row_id);
    return { tool: 'draw_chart', args: { handle: answer.handle, row_ids: wind, group_by: 'event' } };
  }
  return { answer: `Here is the chart. ${toolResults[1]}` };
}

/** What the servers hold for the task, read directly (not through any model): to check the agent's work. */
export interface WindChartTruth {
  /** Expected "event count" entries of the chart. */
  windCounts: string[];
  windRows: number;
  /** Values of the body columns (every column but event), long enough to be recognisable. */
  bodyValues: string[];
}

export async function windChartTruth(weather: Client): Promise<WindChartTruth> {
  const rows = jsonOf<Array<Record<string, unknown>>>(
    await weather.callTool({ name: 'get_alerts', arguments: { area: 'CA' } }),
  );
  const events = rows.map((row) => String(row.event));
  const wind = events.filter((event) => /wind/i.test(event));
  const bodyValues = new Set<string>();
  for (const row of rows)
    for (const [column, value] of Object.entries(row))
      if (
        column !== 'event' &&
        typeof value === 'string' &&
        value.length >= 12 &&
        !events.some((event) => event.includes(value))
      )
        bodyValues.add(value);
  assert.ok(wind.length > 0 && wind.length < rows.length, 'CA has wind alerts and others');
  assert.ok(bodyValues.size > 10, 'the body columns hold recognisable values');
  return { windCounts: countsOf(wind), windRows: wind.length, bodyValues: [...bodyValues] };
}

/** Every prompt the model was sent holds no body value and no resource_url. */
export function assertNothingLeaked(prompts: readonly string[], truth: WindChartTruth): void {
  assert.ok(prompts.length >= 3, `the model was asked ${prompts.length} times`);
  for (const [index, prompt] of prompts.entries()) {
    assert.doesNotMatch(prompt, /\/s2sp\/data\//, `prompt ${index} holds a resource_url`);
    const leaked = truth.bodyValues.filter(
      (value) => prompt.includes(value) || prompt.includes(JSON.stringify(value).slice(1, -1)),
    );
    assert.deepEqual(leaked.slice(0, 3), [], `prompt ${index} holds body values`);
  }
}

/** The chart the task ended with counts exactly the wind alerts, by event. */
export function assertWindChart(chartText: string, truth: WindChartTruth): void {
  assert.deepEqual(chartedCounts(chartText, truth.windRows, 'event'), truth.windCounts);
}

/**
 * For a framework's test: the example servers started as processes around the suite, a session
 * per test, and the checks of a finished run: the final answer holds the right chart, no prompt
 * leaked anything, and the session counted what it kept out.
 */
export function windChartFramework(): {
  openSession(): Promise<S2spAgentSession>;
  assertRun(finalAnswer: string, prompts: readonly string[], session: S2spAgentSession): void;
} {
  let servers: ExampleServerProcesses | undefined;
  let clients: Awaited<ReturnType<typeof connectExampleServers>> | undefined;
  let truth: WindChartTruth | undefined;
  before(
    async () => {
      servers = await startExampleServerProcesses();
      clients = await connectExampleServers(servers);
      truth = await windChartTruth(clients.weather);
    },
    { timeout: 180_000 },
  );
  after(async () => {
    await clients?.close();
    await servers?.stop();
  });
  return {
    openSession: () => S2spAgentSession.open({ servers: { weather: clients!.weather, stats: clients!.stats } }),
    assertRun(finalAnswer, prompts, session) {
      assertWindChart(finalAnswer, truth!);
      assertNothingLeaked(prompts, truth!);
      assert.ok(session.usage.keptOutTokens > 0, 'the session counted what it kept out');
      session.close();
    },
  };
}
