/** How many conversations another tab wrote, and versions deleted, are remembered (the oldest forgotten: their notes are long pushed). */
const KEPT = 1000;

/**
 * Whether a record the push queue noted with the write that committed it is still the stored one, as far as this
 * worker knows (push-queue.ts): not if another tab's worker wrote its conversation since (that tab's record may be the
 * stored one), nor, for a message version, if it was deleted since. Notes are counted, so "since" is a comparison.
 */
export class NotedRecords {
  private tick = 0;
  /** The conversations another tab's worker wrote, with the count of notes when it did. */
  private readonly elsewhere = new Map<string, number>();
  /** Message versions deleted here, with the count of notes when they were. */
  private readonly deletedVersions = new Map<string, number>();

  /** A new note's count. */
  note(): number {
    this.tick += 1;
    return this.tick;
  }

  writtenElsewhere(conversationIds: readonly string[]): void {
    const tick = this.note();
    for (const id of conversationIds) remember(this.elsewhere, id, tick);
  }

  versionsDeleted(messageIds: readonly string[]): void {
    const tick = this.note();
    for (const id of messageIds) remember(this.deletedVersions, id, tick);
  }

  /** Whether a record noted at `noted` (of `conversationId`; a message's `messageId`) is still the stored one. */
  current(conversationId: string, noted: number | undefined, messageId?: string): boolean {
    if (noted === undefined || (this.elsewhere.get(conversationId) ?? 0) >= noted) return false;
    return messageId === undefined || (this.deletedVersions.get(messageId) ?? 0) < noted;
  }
}

function remember(kept: Map<string, number>, id: string, tick: number): void {
  kept.delete(id);
  kept.set(id, tick);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value!);
}
