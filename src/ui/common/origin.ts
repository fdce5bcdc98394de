/** A URL's origin (scheme, host, port), or undefined for text that is not a URL: a secret may only go back to its own. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
