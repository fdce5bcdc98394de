import type { Mirror } from '../mirror/mirror';

/** The mirror's local value listing the files whose chunks it holds (written here, or put together from it). */
const HELD_KEY = 'attachments-held';

/** The files whose chunks the mirror holds (attachment-sync.ts): a file held is not written again after a take-over. */
export class HeldFiles {
  private held: Promise<Set<string>> | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly mirror: Pick<Mirror, 'getLocal' | 'setLocal'>) {}

  async has(attachmentId: string): Promise<boolean> {
    return (await this.files()).has(attachmentId);
  }

  /** Notes that the mirror holds a file's chunks (one write at a time: concurrent uploads share the value). */
  async note(attachmentId: string): Promise<void> {
    const held = await this.files();
    if (held.has(attachmentId)) return;
    held.add(attachmentId);
    this.saving = this.saving.catch(() => undefined).then(() => this.mirror.setLocal(HELD_KEY, [...held]));
    await this.saving;
  }

  private files(): Promise<Set<string>> {
    this.held ??= this.mirror.getLocal(HELD_KEY).then(
      (value) => new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []),
      () => new Set<string>(),
    );
    return this.held;
  }
}
