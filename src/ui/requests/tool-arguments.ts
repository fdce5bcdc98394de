/** A tool call's arguments as the card shows them: a string as it is, anything else as indented JSON. */
export function formatArguments(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}
