// The one wait of the tests: polls until a condition holds, never sleeps blindly. The timeout is
// generous on purpose: it only decides how long a failing test takes, and a loaded machine is slow.
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  {
    timeoutMs = 20_000,
    intervalMs = 25,
    what = 'condition',
    explain,
  }: {
    timeoutMs?: number;
    intervalMs?: number;
    what?: string;
    /** More to say when it times out (a server's activity log): a failure in CI must explain itself. */
    explain?: () => string;
  } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const context = explain ? `\n${explain()}` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}${context}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
