/**
 * A claim found the resource but not its table: another process answered with
 * the resource_url before writing the table (`resourceWriteMode: 'after-answer'`)
 * and has not finished within the wait. The resource is not consumed; a later
 * fetch may succeed, or answer 404 if that process stopped and the resource expires.
 */
export class ResourceTableNotStoredError extends Error {
  constructor(readonly waitedMs: number) {
    super(
      `The resource's table is still being stored by the server that issued it (waited ${waitedMs} ms); try again shortly.`,
    );
    this.name = 'ResourceTableNotStoredError';
  }
}
