/**
 * True when `work` resolves within `timeoutMs`; false when it rejects or takes longer (it is
 * not cancelled). For health checks: "does the database answer `SELECT 1` in time?".
 * @internal
 */
export async function resolvesWithin(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const settled = work.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
