import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Events one session keeps for replay by default. */
const DEFAULT_SESSION_EVENTS = 256;

interface StoredEvent {
  sequence: number;
  streamId: StreamId;
  message: JSONRPCMessage;
}

/**
 * The events of one MCP session, for the transport's SSE priming and
 * resumption: each SSE event gets an id (its sequence number), and a client
 * that reconnects with `Last-Event-ID` gets the events of that stream it
 * missed. Bounded: a ring of the last `maxEvents` events (two per call: the
 * priming event and the answer), written and looked up in constant time; the
 * store goes with its session.
 */
export class SessionEventStore implements EventStore {
  private readonly ring: Array<StoredEvent | undefined>;
  private sequence = 0;

  constructor(private readonly maxEvents = DEFAULT_SESSION_EVENTS) {
    if (!Number.isSafeInteger(maxEvents) || maxEvents < 1)
      throw new Error('SessionEventStore: maxEvents must be a positive integer.');
    this.ring = new Array<StoredEvent | undefined>(maxEvents);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const sequence = ++this.sequence;
    this.ring[sequence % this.maxEvents] = { sequence, streamId, message };
    return String(sequence);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.find(lastEventId);
    if (!last) throw new Error('Unknown or forgotten event id');
    for (let sequence = last.sequence + 1; sequence <= this.sequence; sequence++) {
      const event = this.ring[sequence % this.maxEvents];
      // Overwritten while replaying (more than maxEvents stored meanwhile): what follows is newer.
      if (event?.sequence !== sequence) continue;
      // The priming events (stored as `{}`) carry no message to replay.
      if (event.streamId === last.streamId && Object.keys(event.message).length > 0)
        await send(String(sequence), event.message);
    }
    return last.streamId;
  }

  private find(eventId: EventId): StoredEvent | undefined {
    if (!/^[1-9][0-9]{0,15}$/.test(eventId)) return undefined;
    const sequence = Number(eventId);
    const event = this.ring[sequence % this.maxEvents];
    return event?.sequence === sequence ? event : undefined;
  }
}
