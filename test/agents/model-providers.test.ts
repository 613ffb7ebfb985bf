import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AnthropicMessagesModelProvider } from '../../libs/agents/src/models/anthropic-messages-model-provider';
import { ModelEndpointError } from '../../libs/agents/src/models/model-http-call';
import { OpenAiChatModelProvider } from '../../libs/agents/src/models/openai-chat-model-provider';
import { validateModelEndpoint, type ModelEndpointConfig } from '../../libs/agents/src/models/model-endpoint-config';

type Reply = { status: number; body: string; delayMs?: number };

describe('the model providers: OpenAI-compatible chat and Anthropic Messages over HTTP', () => {
  let server: Server;
  let url = '';
  let reply: Reply = { status: 200, body: '{}' };
  const seen: Array<{ path: string; headers: IncomingHttpHeaders; body: any }> = [];
  const context = () => ({ serverId: 'stats', signal: new AbortController().signal });
  const endpoint = (
    api: ModelEndpointConfig['api'],
    extra: Partial<ModelEndpointConfig> = {},
  ): ModelEndpointConfig => ({
    api,
    url,
    model: 'm-1',
    apiKey: 'sk-secret-key',
    ...extra,
  });
  const params = {
    systemPrompt: 'Be brief.',
    maxTokens: 64,
    messages: [
      { role: 'user' as const, content: { type: 'text' as const, text: 'chart it' } },
      {
        role: 'assistant' as const,
        content: { type: 'tool_use' as const, id: 't1', name: 'get_alerts', input: { area: 'CA' } },
      },
      {
        role: 'user' as const,
        content: {
          type: 'tool_result' as const,
          toolUseId: 't1',
          content: [{ type: 'text' as const, text: '{"rows":3}' }],
        },
      },
    ],
    tools: [{ name: 'draw_chart', description: 'Draws', inputSchema: { type: 'object' as const, properties: {} } }],
  };

  before(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        seen.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
        setTimeout(
          () => response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body),
          reply.delayMs ?? 0,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('OpenAI chat: tool_use and tool_result become tool_calls and tool messages; a tool call comes back as tool_use', async () => {
    reply = {
      status: 200,
      body: JSON.stringify({
        model: 'm-1-2026',
        choices: [
          {
            message: {
              content: null,
              tool_calls: [
                { id: 'c9', type: 'function', function: { name: 'draw_chart', arguments: '{"group_by":"event"}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
    };
    const result = await new OpenAiChatModelProvider(endpoint('openai-chat')).createMessage(params, context());
    const request = seen.at(-1)!;
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-secret-key');
    assert.deepEqual(
      request.body.messages.map((message: { role: string }) => message.role),
      ['system', 'user', 'assistant', 'tool'],
    );
    assert.equal(request.body.messages[2].tool_calls[0].function.arguments, '{"area":"CA"}');
    assert.deepEqual(request.body.messages[3], { role: 'tool', tool_call_id: 't1', content: '{"rows":3}' });
    assert.equal(request.body.tools[0].function.name, 'draw_chart');
    assert.deepEqual(result, {
      role: 'assistant',
      model: 'm-1-2026',
      stopReason: 'toolUse',
      content: { type: 'tool_use', id: 'c9', name: 'draw_chart', input: { group_by: 'event' } },
    });
  });

  test('Anthropic Messages: the same conversation as content blocks; x-api-key and anthropic-version sent', async () => {
    reply = {
      status: 200,
      body: JSON.stringify({ model: 'm-1', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Done.' }] }),
    };
    const result = await new AnthropicMessagesModelProvider(endpoint('anthropic-messages')).createMessage(
      params,
      context(),
    );
    const request = seen.at(-1)!;
    assert.equal(request.path, '/v1/messages');
    assert.equal(request.headers['x-api-key'], 'sk-secret-key');
    assert.equal(request.headers['anthropic-version'], '2023-06-01');
    assert.equal(request.body.system, 'Be brief.');
    assert.deepEqual(request.body.messages[2].content, [
      { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '{"rows":3}' }] },
    ]);
    assert.deepEqual(request.body.tool_choice, { type: 'auto', disable_parallel_tool_use: true });
    assert.deepEqual(result, {
      role: 'assistant',
      model: 'm-1',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'Done.' },
    });
  });

  test('failures are ModelEndpointErrors naming what happened, never the key', async () => {
    const provider = new OpenAiChatModelProvider(endpoint('openai-chat', { timeoutMs: 200, maxResponseBytes: 1_000 }));
    const failure = async (next: Reply): Promise<ModelEndpointError> => {
      reply = next;
      const error = await provider.createMessage(params, context()).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof ModelEndpointError, String(error));
      assert.doesNotMatch(error.message, /sk-secret-key/);
      return error;
    };
    const unauthorized = await failure({ status: 401, body: '{"error":{"message":"Incorrect API key provided"}}' });
    assert.equal(unauthorized.message, 'the model endpoint answered 401: Incorrect API key provided');
    assert.match((await failure({ status: 200, body: '{}', delayMs: 400 })).message, /did not answer within 200 ms/);
    assert.match(
      (await failure({ status: 200, body: `{"x":"${'a'.repeat(2_000)}"}` })).message,
      /more than the 1000 allowed|exceeds the 1000 bytes/,
    );
    assert.match((await failure({ status: 200, body: 'not json' })).message, /something other than JSON/);
    assert.match((await failure({ status: 200, body: '{"choices":[]}' })).message, /without choices\[0\]\.message/);
  });

  test('arguments that are not a JSON object come back raw in _meta, for the planner to refuse', async () => {
    reply = {
      status: 200,
      body: JSON.stringify({
        choices: [
          {
            message: { tool_calls: [{ id: 'c1', function: { name: 'get_alerts', arguments: '{"area":' } }] },
            finish_reason: 'tool_calls',
          },
        ],
      }),
    };
    const result = await new OpenAiChatModelProvider(endpoint('openai-chat')).createMessage(params, context());
    assert.deepEqual(result.content, {
      type: 'tool_use',
      id: 'c1',
      name: 'get_alerts',
      input: {},
      _meta: { 's2sp/unparsed_tool_input': '{"area":' },
    });
  });

  test('the configuration is checked, naming the field', () => {
    const bad: Array<[Partial<ModelEndpointConfig>, RegExp]> = [
      [{ api: 'gemini' as ModelEndpointConfig['api'] }, /model\.api must be one of openai-chat, anthropic-messages/],
      [{ url: 'ftp://x' }, /model\.url must be an http\(s\) URL/],
      [{ url: 'https://user:pw@example.com/v1' }, /must not hold credentials/],
      [{ model: ' ' }, /model\.model must name the model/],
      [{ apiKeyFile: '/k' }, /either as apiKey or as apiKeyFile, not both/],
      [{ timeoutMs: 0 }, /model\.timeoutMs must be a positive integer/],
    ];
    for (const [change, message] of bad)
      assert.throws(() => validateModelEndpoint({ ...endpoint('openai-chat'), ...change }), message);
    assert.throws(
      () =>
        new OpenAiChatModelProvider({ ...endpoint('openai-chat'), apiKey: undefined, apiKeyFile: '/nonexistent/key' }),
      /model\.apiKeyFile \/nonexistent\/key cannot be read \(ENOENT\)/,
    );
  });
});
