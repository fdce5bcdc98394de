/** What a typed Model URL becomes: the address to download, and whether a Hugging Face page address was rewritten. */
type CheckedModelUrl = { ok: true; url: string; rewritten: boolean } | { ok: false };

const HUGGING_FACE_HOSTS = new Set(['huggingface.co', 'www.huggingface.co', 'hf.co']);

/**
 * Checks a Model URL before it is saved: only http(s) can be downloaded by the worker's fetch. A Hugging Face file
 * page (`…/blob/<revision>/<file>`) is an HTML page, so it becomes the file's download address (`…/resolve/…`).
 */
export function checkModelUrl(text: string): CheckedModelUrl {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') return { ok: false };
  // /<owner>/<repository>/blob/<revision>/<path>: the page; /resolve/ in the same place is the file.
  const parts = url.pathname.split('/');
  if (HUGGING_FACE_HOSTS.has(url.hostname.toLowerCase()) && parts[3] === 'blob' && parts.length > 5) {
    parts[3] = 'resolve';
    url.pathname = parts.join('/');
    return { ok: true, url: url.href, rewritten: true };
  }
  return { ok: true, url: text.trim(), rewritten: false };
}

/** Whether a profile's in-browser model source can be used: a file on this device, or a URL that passes the check. */
export function isUsableModelSource(source: string): boolean {
  return source.startsWith('file:') ? source.length > 'file:'.length : checkModelUrl(source).ok;
}
