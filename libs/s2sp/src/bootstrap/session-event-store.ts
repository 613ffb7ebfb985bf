import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Events one session keeps for replay by default. */
const DEFAULT_SESSION_EVENTS = 256;

/**
 * The events of one MCP session, for the transport's SSE priming and
 * resumption: each SSE event gets an id, and a client that reconnects with
 * `Last-Event-ID` gets the events of that stream it missed. Bounded: the
 * oldest events are forgotten past `maxEvents`, and the store goes with its
 * session.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage }>();
  private sequence = 0;

  constructor(private readonly maxEvents = DEFAULT_SESSION_EVENTS) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const eventId = `${++this.sequence}`;
    this.events.set(eventId, { streamId, message });
    if (this.events.size > this.maxEvents) this.events.delete(this.events.keys().next().value!);
    return eventId;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (!last) throw new Error('Unknown or forgotten event id');
    let after = false;
    for (const [eventId, event] of this.events) {
      // The priming events (stored as `{}`) carry no message to replay.
      if (after && event.streamId === last.streamId && Object.keys(event.message).length > 0)
        await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return last.streamId;
  }
}
