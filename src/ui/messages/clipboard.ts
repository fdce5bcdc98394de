/** Writes `text` to the clipboard; false when the browser refuses (no permission, an insecure page, no focus). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
