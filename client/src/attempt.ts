import { NetworkError, TimeoutError } from "./errors.js";

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * One request and its body, cut at `timeoutMs` or when the caller's signal aborts (which
 * then rejects with the signal's reason), even with a `fetch` that ignores signals.
 */
export const attempt = async (
  fetcher: Fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ response: Response; text: string }> => {
  signal?.throwIfAborted();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener("abort", abort);
  const cut = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", reject));
  try {
    const sent = fetcher(url, { ...init, signal: controller.signal });
    sent.catch(() => {});
    const response = await Promise.race([sent, cut]);
    const reading = response.text();
    reading.catch(() => {});
    return { response, text: await Promise.race([reading, cut]) };
  } catch (error) {
    signal?.throwIfAborted();
    if (timedOut) throw new TimeoutError(`No answer within ${timeoutMs} ms`);
    throw new NetworkError("No answer: the connection failed", { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
};
