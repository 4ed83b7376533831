/** Polls until the probe gives something truthy, and returns it; fails after the timeout. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
