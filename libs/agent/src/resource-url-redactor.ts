/** What a redacted resource_url reads as. */
export const REDACTED_RESOURCE_URL = '[resource_url]';

/**
 * The resource_urls a session received, replaced in any text the model is shown (a consumer's
 * error message may quote the URL it was handed). A URL is kept `keepMs` after it arrived (the
 * session's handle lifetime: by then the session can no longer hand it over, and on a default
 * resource server it has expired) and at most the `maxUrls` most recent, so a long conversation
 * neither grows the set nor slows every answer's redaction.
 */
export class ResourceUrlRedactor {
  /** Each URL and when it stops being redacted, oldest first. */
  private readonly urls = new Map<string, number>();

  constructor(
    private readonly limits: { keepMs: number; maxUrls: number },
    private readonly now: () => number = Date.now,
  ) {}

  add(url: string): void {
    this.urls.delete(url);
    this.urls.set(url, this.now() + this.limits.keepMs);
    for (const oldest of this.urls.keys()) {
      if (this.urls.size <= this.limits.maxUrls) break;
      this.urls.delete(oldest);
    }
  }

  redact(text: string): string {
    const now = this.now();
    let redacted = text;
    for (const [url, until] of this.urls) {
      if (until <= now) {
        this.urls.delete(url);
        continue;
      }
      if (redacted.includes(url)) redacted = redacted.split(url).join(REDACTED_RESOURCE_URL);
    }
    return redacted;
  }

  clear(): void {
    this.urls.clear();
  }

  /** URLs currently redacted, for tests. */
  get size(): number {
    return this.urls.size;
  }
}
