/** Polls `probe` until it returns a value other than undefined/false; fails with `what` after timeoutMs (a bound for a stuck wait, generous for a loaded 2-core CI machine, not a timing claim). */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
