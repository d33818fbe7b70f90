// Waiting in the end-to-end suite: poll until a condition holds.

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` (sync or async) every 100 ms until it returns something
 * truthy, and returns that; throws naming `what` after `ms`. */
export async function waitFor(check, what, ms = 15000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
    const v = await check();
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}
