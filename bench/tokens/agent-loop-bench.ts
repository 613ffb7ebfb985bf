/**
 * Tokens an agent's model is actually sent, through a real agent loop: the AI SDK's generateText
 * with its mock language model scripted to "chart the wind alerts", once with @s2sp/agent's tools
 * and once with the same servers' plain MCP tools (@ai-sdk/mcp), on the CA alerts (the example
 * weather server) and on 5,000 generated alerts. Counted (o200k_base) from every prompt the model
 * received and every tool call it wrote.
 *
 *   npm run build && node dist/bench/tokens/agent-loop-bench.js [largeRows]
 *
 * See bench/tokens/README.md.
 */
import 'reflect-metadata';
import { createMCPClient } from '@ai-sdk/mcp';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { S2spAgentSession } from '@s2sp/agent';
import { s2spAiSdkTools } from '@s2sp/agent/ai-sdk';
import { countTokens } from '@s2sp/protocol';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp } from '../../test/support/mcp-client';
import { startStats, startWeather } from '../../test/support/stack';
import { mintTestToken, type TestTokenRequest } from '../../test/support/tokens';
import { startLargeAlertsServer } from './alerts-5000-server';
import { measurePlannerLoop } from './planner-loop';

type Mode = 's2sp' | 'plain' | 'planner';
type Options = Parameters<MockLanguageModelV3['doGenerate']>[0];
type Result = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

interface LoopFigures {
  modelCalls: number;
  /** Tokens of every prompt the model was sent, summed over its calls (each call re-reads the history). */
  promptTokens: number;
  /** The largest single prompt: what must fit in the model's context window. */
  largestPrompt: number;
  /** Tokens of the tool calls the model wrote. */
  writtenTokens: number;
  chart: string;
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};
const WEATHER_TOKEN: TestTokenRequest = { audience: 'weather-server', scopes: ['weather:read'] };
const STATS_TOKEN: TestTokenRequest = {
  audience: 'stats-server',
  scopes: ['stats:chart', 's2sp:data:read', 'weather:read'],
};

const counted = new Map<string, number>();
/** o200k tokens of a text, each distinct text counted once (the same tool result is re-sent on every later call). */
function tokensOf(text: string): number {
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text);
    counted.set(text, tokens);
  }
  return tokens;
}

/** The texts a model reads in a prompt: messages, tool calls and tool results. */
function promptTexts(options: Options): string[] {
  return options.prompt.flatMap((message) =>
    typeof message.content === 'string'
      ? [message.content]
      : message.content.flatMap((part) => {
          if (part.type === 'text') return [part.text];
          if (part.type === 'tool-call') return [JSON.stringify(part.input)];
          if (part.type === 'tool-result' && 'value' in part.output) return [asSent(part.output.value)];
          return [];
        }),
  );
}

/** A tool result as the model is sent it: text as it is, a JSON result (plain MCP tools answer the whole MCP result) as JSON. */
function asSent(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The text a tool result holds: itself, or the text parts of a content list or of an MCP result. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const blocks = Array.isArray(value) ? value : ((value as { content?: unknown[] }).content ?? []);
  return (blocks as Array<{ type: string; text?: string }>)
    .flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : []))
    .join('\n');
}

function toolResults(options: Options): string[] {
  return options.prompt
    .flatMap((message) => (message.role === 'tool' ? message.content : []))
    .flatMap((part) => (part.type === 'tool-result' && 'value' in part.output ? [textOf(part.output.value)] : []));
}

const isWind = (event: unknown) => /wind/i.test(String(event));

/** The scripted model: get the alerts, hand the wind ones to draw_chart, answer with the chart. */
function nextMove(mode: Mode, results: string[]): { tool: string; input: Record<string, unknown> } | { text: string } {
  if (results.length === 0)
    return { tool: 'get_alerts', input: mode === 's2sp' ? { area: 'CA', abstract_domains: 'event' } : { area: 'CA' } };
  if (results.length > 1) return { text: results[1] };
  if (mode === 's2sp') {
    const { handle, abstract } = JSON.parse(results[0]) as {
      handle: string;
      abstract: Array<{ _row_id: number; event: string }>;
    };
    return {
      tool: 'draw_chart',
      input: {
        handle,
        row_ids: abstract.filter((row) => isWind(row.event)).map((row) => row._row_id),
        group_by: 'event',
      },
    };
  }
  // Plain MCP: the model has every row and must write the chosen ones into the consumer's arguments itself.
  const rows = (JSON.parse(results[0]) as Array<Record<string, unknown>>).map(
    (row, index): Record<string, unknown> => ({ _row_id: index, ...row }),
  );
  const wind = rows.filter((row) => isWind(row.event));
  return {
    tool: 'draw_chart',
    input: {
      abstract_data: JSON.stringify(wind.map((row) => ({ _row_id: row._row_id, event: row.event }))),
      body_data: JSON.stringify(wind),
      group_by: 'event',
    },
  };
}

async function runLoop(mode: Mode, tools: ToolSet): Promise<LoopFigures> {
  const figures: LoopFigures = { modelCalls: 0, promptTokens: 0, largestPrompt: 0, writtenTokens: 0, chart: '' };
  const model = new MockLanguageModelV3({
    doGenerate: async (options): Promise<Result> => {
      const prompt = promptTexts(options).reduce((sum, text) => sum + tokensOf(text), 0);
      figures.modelCalls += 1;
      figures.promptTokens += prompt;
      figures.largestPrompt = Math.max(figures.largestPrompt, prompt);
      const move = nextMove(mode, toolResults(options));
      if ('text' in move)
        return {
          content: [{ type: 'text', text: move.text }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      const input = JSON.stringify(move.input);
      figures.writtenTokens += tokensOf(input);
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${figures.modelCalls}`, toolName: move.tool, input }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  const result = await generateText({ model, prompt: 'Chart the wind alerts in CA.', tools, stopWhen: stepCountIs(5) });
  figures.chart = result.text.split('\n').find((line) => line.startsWith('Charted')) ?? result.text.slice(0, 120);
  return figures;
}

/** Both loops over one resource server and the stats server. */
async function measure(
  resourceUrl: string,
  resourceToken: TestTokenRequest | null,
  statsUrl: string,
): Promise<Record<Mode, LoopFigures>> {
  const weather = await connectMcp(resourceUrl, 'agent-loop-bench', resourceToken);
  const stats = await connectMcp(statsUrl, 'agent-loop-bench', STATS_TOKEN);
  const session = await S2spAgentSession.open({ servers: { weather, stats }, countTokens: false });
  const s2sp = await runLoop('s2sp', s2spAiSdkTools(session));
  await Promise.all([weather.close(), stats.close()]);

  const headers = async (token: TestTokenRequest | null) =>
    token === null ? undefined : { authorization: `Bearer ${await mintTestToken(token)}` };
  const plainWeather = await createMCPClient({
    transport: { type: 'http', url: `${resourceUrl}/mcp`, headers: await headers(resourceToken) },
  });
  const plainStats = await createMCPClient({
    transport: { type: 'http', url: `${statsUrl}/mcp`, headers: await headers(STATS_TOKEN) },
  });
  const plain = await runLoop('plain', { ...(await plainWeather.tools()), ...(await plainStats.tools()) });
  await Promise.all([plainWeather.close(), plainStats.close()]);
  const planner = await measurePlannerLoop(`${resourceUrl}/mcp`, `${statsUrl}/mcp`, tokensOf);
  return { s2sp, plain, planner };
}

const TOOLS_NAMES: Record<Mode, string> = {
  plain: 'plain MCP (@ai-sdk/mcp)',
  s2sp: '@s2sp/agent',
  planner: "the agents' model planner",
};

function print(dataset: string, figures: Record<Mode, LoopFigures>): void {
  const format = (value: number) => value.toLocaleString('en-US');
  for (const mode of ['plain', 's2sp', 'planner'] as const) {
    const run = figures[mode];
    console.log(
      `| ${dataset} | ${TOOLS_NAMES[mode]} | ${run.modelCalls} | ${format(run.promptTokens)} | ${format(run.largestPrompt)} | ${format(run.writtenTokens)} | ${run.chart} |`,
    );
  }
  for (const mode of ['s2sp', 'planner'] as const) {
    const ratio = (key: keyof Omit<LoopFigures, 'chart' | 'modelCalls'>) =>
      (figures.plain[key] / Math.max(figures[mode][key], 1)).toFixed(1);
    console.log(
      `| ${dataset} | plain ÷ ${TOOLS_NAMES[mode]} | | ${ratio('promptTokens')}× | ${ratio('largestPrompt')}× | ${ratio('writtenTokens')}× | |`,
    );
  }
}

/** Runs the loops on CA and on `largeRows` generated alerts and prints the table. */
export async function runAgentLoopBench(largeRows: number): Promise<void> {
  if (!Number.isSafeInteger(largeRows) || largeRows < 1)
    throw new Error('agent-loop-bench: the row count must be a positive integer');
  const started: RunningMcpServer[] = [];
  try {
    const weather = await startWeather();
    started.push(weather);
    const large = await startLargeAlertsServer(largeRows);
    started.push(large);
    const stats = await startStats([weather.url, large.url], {
      limits: { maxRows: largeRows, maxResponseBytes: 256 * 1024 * 1024, maxRowIdsPerFetch: largeRows },
      mcpLimits: { maxBodyBytes: 256 * 1024 * 1024 },
    });
    started.push(stats);
    console.log('Agent loop (AI SDK generateText, scripted mock model): "chart the wind alerts", tokens o200k_base');
    console.log(
      '| alerts | tools | model calls | tokens sent to the model (all calls) | largest prompt | tokens the model wrote | chart |',
    );
    console.log('|---|---|---:|---:|---:|---:|---|');
    print('CA (14)', await measure(weather.url, WEATHER_TOKEN, stats.url));
    print(`generated ${largeRows.toLocaleString('en-US')}`, await measure(large.url, null, stats.url));
  } finally {
    for (const server of started.reverse()) await server.close();
  }
}

if (require.main === module) {
  runAgentLoopBench(Number(process.argv[2] ?? 5_000)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
