import { ApiError, NetworkError, TimeoutError } from "./errors.js";

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** What limits one attempt: its time, the size of its answer, and whether it may follow a redirect. */
export type Limits = { timeoutMs: number; maxResponseBytes: number; followRedirects: boolean };

const refused = (response: Response, code: "response_too_large" | "unexpected_response", message: string) => {
  response.body?.cancel().catch(() => {});
  return new ApiError(response.status, code, message, response.headers.get("X-Request-Id") ?? undefined, undefined);
};

/** The body as text, read only up to `maxBytes`: past it, the reading stops and the answer is refused. */
const readCapped = async (response: Response, maxBytes: number): Promise<string> => {
  const tooLarge = () =>
    refused(
      response,
      "response_too_large",
      `The answer is over maxResponseBytes (${maxBytes} bytes): not read further.`,
    );
  if (Number(response.headers.get("Content-Length")) > maxBytes) throw tooLarge();
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  for (let bytes = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
};

/**
 * One request and its body, cut at `timeoutMs` or when the caller's signal aborts (which
 * then rejects with the signal's reason), even with a `fetch` that ignores signals. The API
 * never redirects: a redirect is refused unless `followRedirects`, so that neither the key
 * nor the caller's trust goes wherever a proxy or a wrong address points.
 */
export const attempt = async (
  fetcher: Fetch,
  url: string,
  init: RequestInit,
  { timeoutMs, maxResponseBytes, followRedirects }: Limits,
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
    const sent = fetcher(url, { ...init, redirect: followRedirects ? "follow" : "manual", signal: controller.signal });
    sent.catch(() => {});
    const response = await Promise.race([sent, cut]);
    const redirected =
      (response.type as string) === "opaqueredirect" || (response.status > 299 && response.status < 400);
    if (!followRedirects && (redirected || response.redirected)) {
      const to = response.headers.get("Location");
      throw refused(
        response,
        "unexpected_response",
        `Refused a redirect${to ? ` to ${to}` : ""}: the API never redirects; check baseUrl.`,
      );
    }
    const reading = readCapped(response, maxResponseBytes);
    reading.catch(() => {});
    return { response, text: await Promise.race([reading, cut]) };
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof ApiError) throw error;
    if (timedOut) throw new TimeoutError(`No answer within ${timeoutMs} ms`);
    throw new NetworkError("No answer: the connection failed", { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
};
