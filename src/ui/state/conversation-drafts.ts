/**
 * What the UI holds for conversations between views: creations still on their way to the worker (the view opens at
 * once, before the worker answers) and the composer's unsent text per conversation (also saved through the worker).
 */
const creations = new Map<string, Promise<unknown>>();
const composerTexts = new Map<string, string>();

/** Remembers a creation in flight; commands for that conversation wait for it. */
export function trackCreation(conversationId: string, created: Promise<unknown>): void {
  const settled = created.then(
    () => undefined,
    () => undefined,
  );
  creations.set(conversationId, settled);
  void settled.then(() => creations.delete(conversationId));
}

export function isBeingCreated(conversationId: string): boolean {
  return creations.has(conversationId);
}

/** Resolves once the conversation's creation (if any) has been answered. */
export function whenCreated(conversationId: string): Promise<unknown> {
  return creations.get(conversationId) ?? Promise.resolve();
}

export function composerText(conversationId: string): string | undefined {
  return composerTexts.get(conversationId);
}

export function setComposerText(conversationId: string, text: string): void {
  if (text === '') composerTexts.delete(conversationId);
  else composerTexts.set(conversationId, text);
}
