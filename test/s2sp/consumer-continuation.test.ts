// A consumer tool that asks its client something after its rows were fetched (sampling, a
// question) answers an InputRequiredResult whose requestState carries what it needs next
// (sealConsumerState): the client's next round is not fetched again (the resource_url is
// single-use), the tool resumes from its state (consumerState), and a state issued for one
// tool is refused by another. Spoken to on the 2026-07-28 wire, as any client would.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { inputRequired, inputResponse, type CallToolResult } from '@modelcontextprotocol/server';
import { McpController, type McpContext } from '@rekog/mcp-nest';
import {
  consumerState,
  InMemoryResourceStore,
  mcpServerContext,
  S2spConsumerTool,
  S2spModule,
  S2spResourceTool,
  sealConsumerState,
  serveMcp,
  type RunningMcpServer,
  type S2spConsumerPayload,
} from '@s2sp/core';
import { z } from 'zod';
import { freePort } from '../support/free-port';
import { callModern } from '../support/modern-wire';

const ROWS = [
  { id: 'a', kind: 'wind', detail: 'gusts' },
  { id: 'b', kind: 'flood', detail: 'rain' },
  { id: 'c', kind: 'wind', detail: 'calm later' },
];
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const question = (message: string) =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });

@McpController()
class ContinuationController {
  @S2spResourceTool({ name: 'list_events', description: 'Three events.', parameters: z.object({}) })
  listEvents(): Record<string, unknown>[] {
    return ROWS;
  }

  /** Counts its rows, then asks whether to report the count; reports it from its sealed state. */
  @S2spConsumerTool({ name: 'tally', description: 'Counts rows, asks, reports.', parameters: z.object({}) })
  async tally(@Payload() payload: S2spConsumerPayload, @Ctx() context: McpContext) {
    const resumed = consumerState<{ rows: number; details: string[] }>(context);
    if (!resumed) {
      const details = payload.rows.map((row) => String(row['detail']));
      return inputRequired({
        inputRequests: { ok: question(`Report ${payload.rows.length} rows?`) },
        requestState: await sealConsumerState(context, { rows: payload.rows.length, details }),
      });
    }
    const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, 'ok');
    const yes = answer.kind === 'elicit' && answer.content?.['ok'] === true;
    return text(
      yes
        ? `${resumed.rows} rows (${resumed.details.join(', ')}); rows this round: ${payload.rows.length}`
        : 'not reported',
    );
  }

  @S2spConsumerTool({ name: 'other', description: 'Counts rows.', parameters: z.object({}) })
  other(@Payload() payload: S2spConsumerPayload) {
    return text(`other saw ${payload.rows.length} rows`);
  }
}

describe('sealConsumerState / consumerState: a consumer tool asks after fetching, and resumes without fetching again', () => {
  let server: RunningMcpServer;
  let url: string;

  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    @Module({
      imports: [
        S2spModule.forRoot({
          publicBaseUrl: base,
          allowedResourceOrigins: [base],
          resourceStore: { useValue: new InMemoryResourceStore() },
          warmUp: false,
        }),
      ],
      controllers: [ContinuationController],
    })
    class ContinuationModule {}
    server = await serveMcp(ContinuationModule, {
      name: 'continuation',
      version: '1.0.0',
      host: '127.0.0.1',
      port,
      transport: 'http',
      logger: false,
      requestState: { key: 'a test key that is at least thirty-two bytes long' },
    });
    url = server.url;
  });
  after(() => server?.close());

  /** A fresh resource of the three events: its abstract rows and single-use resource_url. */
  async function publish(): Promise<{ abstract_data: string; resource_url: string }> {
    const answer = await callModern(url, 'tools/call', {
      name: 'list_events',
      arguments: { abstract_domains: 'id,kind' },
    });
    const [block] = (answer.result?.['content'] ?? []) as Array<{ text?: string }>;
    const issued = JSON.parse(block?.text ?? '{}') as { abstract?: unknown[]; resource_url?: string };
    assert.ok(issued.abstract && issued.resource_url, JSON.stringify(answer));
    return { abstract_data: JSON.stringify(issued.abstract), resource_url: issued.resource_url };
  }

  test('the first round fetches and asks; the answered round resumes from the state, fetching nothing', async () => {
    const args = await publish();
    const first = await callModern(url, 'tools/call', { name: 'tally', arguments: args });
    assert.equal(first.result?.['resultType'], 'input_required', JSON.stringify(first));
    const second = await callModern(url, 'tools/call', {
      name: 'tally',
      arguments: args,
      inputResponses: { ok: { action: 'accept', content: { ok: true } } },
      requestState: first.result?.['requestState'],
    });
    assert.deepEqual(second.result?.['content'], [
      { type: 'text', text: '3 rows (gusts, rain, calm later); rows this round: 0' },
    ]);
    assert.notEqual(second.result?.['isError'], true);
  });

  test("another tool refuses a state issued for tally, and tally's resource_url stays spent", async () => {
    const args = await publish();
    const first = await callModern(url, 'tools/call', { name: 'tally', arguments: args });
    const replayed = await callModern(url, 'tools/call', {
      name: 'other',
      arguments: args,
      requestState: first.result?.['requestState'],
    });
    assert.equal(replayed.result?.['isError'], true);
    assert.match(JSON.stringify(replayed.result?.['content']), /not issued for this tool and caller/);
    const again = await callModern(url, 'tools/call', { name: 'other', arguments: args });
    assert.equal(again.result?.['isError'], true, 'the resource_url was claimed by the first round');
  });
});
