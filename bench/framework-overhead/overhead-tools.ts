import { z } from 'zod';

/** The rows every server's `get_rows` answers: 10 rows of 5 columns, like a small alert list. */
export const ROWS: ReadonlyArray<Record<string, unknown>> = Array.from({ length: 10 }, (_, index) => ({
  id: `alert-${index}`,
  event: index % 2 === 0 ? 'Wind Advisory' : 'Flood Watch',
  severity: ['Minor', 'Moderate', 'Severe'][index % 3],
  area: 'CA',
  description: `Gusts to ${40 + index} mph in the northern valleys; secure loose objects.`,
}));

export const ECHO = {
  name: 'echo',
  description: 'Answers the text it is given.',
  parameters: z.object({ text: z.string() }),
} as const;

export const GET_ROWS = {
  name: 'get_rows',
  description: 'Ten weather alerts.',
  parameters: z.object({ area: z.string() }),
} as const;

export function echoResult(text: string): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text }] };
}

export function rowsResult(): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: JSON.stringify(ROWS) }] };
}
