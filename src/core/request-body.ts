/**
 * A request body as `fetch` is best given it. Chromium copies a string body on the calling thread when `fetch` is
 * called: a sync write of two file chunks (1.4 MB of JSON) held the agent's worker 80–250 ms, and a model request
 * carrying a 5 MB image (7 MB of JSON) 400–500 ms. Made into a Blob first, the same text costs about half of that on
 * the thread and the request ends sooner (measured in a worker: 1.4 MB, 150 → 80 ms; 7 MB, 720 → 410 ms). A small body
 * stays a string, which is cheaper below this size.
 */
export const BLOB_BODY_CHARS = 256 * 1024;

/** `body`, as a Blob of the same content type when it is a long string. */
export function sendableBody<T extends BodyInit | null | undefined>(body: T, headers: Headers): T | Blob {
  if (typeof body !== 'string' || body.length < BLOB_BODY_CHARS) return body;
  // The header stays as sent; the Blob's type only matters where no header names one (fetch's own default for text).
  return new Blob([body], { type: headers.get('content-type') ?? 'text/plain;charset=UTF-8' });
}
