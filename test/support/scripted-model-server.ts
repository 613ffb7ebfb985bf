// A language model endpoint on loopback for tests: it speaks the OpenAI Chat Completions
// (`POST /v1/chat/completions`) and Anthropic Messages (`POST /v1/messages`) wire formats, tool
// calls included, and answers what its script decides from the tool results it was sent.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ModelWireFormat = 'openai-chat' | 'anthropic-messages';

/** The model's next move: a tool call (arguments as an object, or raw text for a malformed call), or a final text. */
export type ScriptedModelMove = { tool: string; args: Record<string, unknown> | string } | { text: string };

export interface RecordedModelRequest {
  format: ModelWireFormat;
  headers: IncomingHttpHeaders;
  body: Record<string, any>;
}

export interface ScriptedModelServer {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  requests: RecordedModelRequest[];
  /** Decides each answer from the text of every tool result in the request, in order. */
  script: (toolResults: string[]) => ScriptedModelMove;
  /** How long each answer waits, in ms (a slow model). */
  delayMs: number;
  close(): Promise<void>;
}

function toolResultsOf(format: ModelWireFormat, body: Record<string, any>): string[] {
  const messages = (body.messages ?? []) as Array<Record<string, any>>;
  if (format === 'openai-chat')
    return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
  return messages.flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content)
      ? (message.content as Array<Record<string, any>>)
          .filter((block) => block.type === 'tool_result')
          .map((block) => String(block.content?.[0]?.text ?? ''))
      : [],
  );
}

function answerOf(
  format: ModelWireFormat,
  move: ScriptedModelMove,
  model: string,
  turn: number,
): Record<string, unknown> {
  if (format === 'openai-chat') {
    const message =
      'tool' in move
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${turn}`,
                type: 'function',
                function: {
                  name: move.tool,
                  arguments: typeof move.args === 'string' ? move.args : JSON.stringify(move.args),
                },
              },
            ],
          }
        : { role: 'assistant', content: move.text };
    return {
      id: `chatcmpl-${turn}`,
      object: 'chat.completion',
      model,
      choices: [{ index: 0, message, finish_reason: 'tool' in move ? 'tool_calls' : 'stop' }],
    };
  }
  const content =
    'tool' in move
      ? [{ type: 'tool_use', id: `toolu_${turn}`, name: move.tool, input: move.args }]
      : [{ type: 'text', text: move.text }];
  return {
    id: `msg_${turn}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: 'tool' in move ? 'tool_use' : 'end_turn',
  };
}

export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  const server = createServer((request, response) => {
    const format: ModelWireFormat | undefined =
      request.url === '/v1/chat/completions'
        ? 'openai-chat'
        : request.url === '/v1/messages'
          ? 'anthropic-messages'
          : undefined;
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method !== 'POST' || !format) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(text) as Record<string, any>;
      scripted.requests.push({ format, headers: request.headers, body });
      const move = scripted.script(toolResultsOf(format, body));
      const answer = answerOf(format, move, String(body.model), scripted.requests.length);
      setTimeout(() => {
        if (!response.destroyed)
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      }, scripted.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const scripted: ScriptedModelServer = {
    url: `http://127.0.0.1:${port}/v1`,
    requests: [],
    script: () => ({ text: 'no script' }),
    delayMs: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return scripted;
}
