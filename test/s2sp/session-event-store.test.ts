import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { SessionEventStore } from '../../libs/s2sp/src/bootstrap/session-event-store';

const PRIMING = {} as JSONRPCMessage;
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

async function replayed(store: SessionEventStore, lastEventId: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, message) => void sent.push([eventId, message]),
  });
  return { streamId, sent };
}

describe('SessionEventStore', () => {
  test('replays the messages of the same stream after an event id, without priming events or other streams', async () => {
    const store = new SessionEventStore(8);
    const primingA = await store.storeEvent('a', PRIMING);
    await store.storeEvent('b', PRIMING);
    const answerA = await store.storeEvent('a', answer(1));
    await store.storeEvent('b', answer(2));
    const laterA = await store.storeEvent('a', answer(3));

    assert.equal(await store.getStreamIdForEventId(primingA), 'a');
    assert.deepEqual(await replayed(store, primingA), {
      streamId: 'a',
      sent: [
        [answerA, answer(1)],
        [laterA, answer(3)],
      ],
    });
    assert.deepEqual((await replayed(store, laterA)).sent, [], 'nothing after the last event');
  });

  test('keeps the last maxEvents events: an older id, or one never issued, is unknown', async () => {
    const store = new SessionEventStore(4);
    const ids: string[] = [];
    for (let index = 1; index <= 6; index++) ids.push(await store.storeEvent('a', answer(index)));

    assert.equal(await store.getStreamIdForEventId(ids[1]), undefined, 'forgotten');
    assert.equal(await store.getStreamIdForEventId(ids[2]), 'a');
    assert.deepEqual(
      (await replayed(store, ids[2])).sent.map(([, message]) => message),
      [answer(4), answer(5), answer(6)],
    );
    for (const unknown of ['0', '7', '-1', '02', '1e3', 'no-such-event', '99999999999999999999'])
      assert.equal(await store.getStreamIdForEventId(unknown), undefined, unknown);
    await assert.rejects(replayed(store, ids[0]), /Unknown or forgotten event id/);
    assert.throws(() => new SessionEventStore(0), /maxEvents must be a positive integer/);
  });
});
