// Reading Server-Sent Events answers of POST /rpc (agent.streamTask) in tests.

export interface SseEvent {
  event: string;
  data: any;
}

/** Parses the complete events in `text`; the unfinished rest is returned too. */
export function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      return { event, data: JSON.parse(data.join('\n')) };
    });
  return { events, rest };
}

/** Reads events off a streamed response until `until` says stop (then leaves the rest unread) or the stream ends. */
export async function readSse(
  response: Response,
  until: (event: SseEvent) => boolean = () => false,
): Promise<SseEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    const parsed = parseSse(buffer + value);
    buffer = parsed.rest;
    for (const event of parsed.events) {
      events.push(event);
      if (until(event)) {
        reader.releaseLock();
        return events;
      }
    }
  }
}
