import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningMcpServer } from '@s2sp/core';
import { z } from 'zod';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, unary, type AgentsClients, type Message } from '../support/agents-grpc-client';
import { connectMcp } from '../support/mcp-client';
import { startWeather } from '../support/stack';
import { mintTestToken } from '../support/tokens';

let weather: RunningMcpServer;
let agents: RunningAgents;
let agentsClients: AgentsClients;

before(async () => {
  weather = await startWeather();
  agents = await startTestAgents(agentsTestConfig([{ id: 'weather', url: `${weather.url}/mcp` }]));
  agentsClients = connectAgents(agents.url);
});

after(async () => {
  agentsClients?.close();
  await agents?.close();
  await weather?.close();
});

async function connectV2(onToolsChanged: () => void): Promise<ClientV2> {
  const client = new ClientV2({ name: 'list-changed-v2', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', onToolsChanged);
  const transport = new StreamableHTTPClientTransportV2(new URL(`${weather.url}/mcp`), {
    requestInit: {
      headers: {
        authorization: `Bearer ${await mintTestToken({ audience: 'weather-server', scopes: ['weather:read'] })}`,
      },
    },
  });
  await client.connect(transport);
  return client;
}

test("a tool registered at run time is announced to v1 and v2 SDK sessions, and the agents' catalog picks it up", async () => {
  let v1Notified = 0;
  let v2Notified = 0;
  const v1 = await connectMcp(weather.url, 'list-changed-v1', { scopes: ['weather:read'] });
  v1.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    v1Notified += 1;
  });
  const v2 = await connectV2(() => {
    v2Notified += 1;
  });
  const toolNames = async (): Promise<string[]> =>
    ((await unary(agentsClients.tools, 'ListTools', {})).tools as Message[]).map((tool) => String(tool.name));
  try {
    // The agents have read the catalog once (lazily, on first use) before the tool exists.
    assert.ok((await toolNames()).includes('get_alerts'));
    assert.ok(!(await toolNames()).includes('runtime_echo'));

    weather.mcp.registerTool({
      name: 'runtime_echo',
      description: 'Echoes its text (registered at run time).',
      parameters: z.object({ text: z.string() }),
      handler: (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
    });

    await eventually('the v1 session to be told', () => v1Notified > 0);
    await eventually('the v2 session to be told', () => v2Notified > 0);
    assert.ok((await v1.listTools()).tools.some((tool) => tool.name === 'runtime_echo'));
    assert.ok((await v2.listTools()).tools.some((tool) => tool.name === 'runtime_echo'));
    await eventually('the agents to list the new tool', async () => (await toolNames()).includes('runtime_echo'));

    weather.mcp.removeTool('runtime_echo');
    await eventually('the agents to drop the removed tool', async () => !(await toolNames()).includes('runtime_echo'));
    assert.ok(v1Notified >= 2, 'told about the removal too');
  } finally {
    await v1.close();
    await v2.close();
  }
});
