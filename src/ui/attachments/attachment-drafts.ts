import { createSignal } from 'solid-js';
import type { AttachmentKind, AttachmentRefusal } from '../../schema/attachments/attachment-kinds';
import type { ProfileView } from '../../schema/records';

/** The profile a conversation's model is made from, as far as images go; absent: unknown, taken as one that takes them. */
export type ImagesProfile = Pick<ProfileView, 'kind' | 'acceptsImages'> | undefined;

/** A file chosen, dropped or pasted into a conversation's composer, not yet sent. */
export interface PendingAttachment {
  /** Stable for the list (two files may share a name). */
  key: string;
  file: File;
  kind: AttachmentKind;
}

// Per conversation, in this tab's memory like the composer's text before its save: switching conversations keeps them;
// a reload does not (the files are the user's, still on their disk; unsent text is what is stored).
const [pending, setPending] = createSignal<Readonly<Record<string, readonly PendingAttachment[]>>>({});
const [refusals, setRefusals] = createSignal<Readonly<Record<string, readonly AttachmentRefusal[]>>>({});
let nextKey = 1;
/** The checks of files offered and not done yet, per conversation (see offersChecked). */
const offering = new Map<string, Set<Promise<void>>>();

export function pendingAttachments(conversationId: string): readonly PendingAttachment[] {
  return pending()[conversationId] ?? [];
}

/** Why the files last offered were not all attached; cleared by the next offer, a removal or a send. */
export function attachmentRefusals(conversationId: string): readonly AttachmentRefusal[] {
  return refusals()[conversationId] ?? [];
}

/**
 * Offers files to a conversation's composer (Attach files, a drop, a paste). Each is checked as it comes (kind, size,
 * how many, images for a model that takes them, a text file's first bytes); those refused are said in words and the
 * rest, and everything attached before, stay. The rules load with the first file offered, not with the app.
 */
export async function offerAttachments(conversationId: string, files: readonly File[], profile: ImagesProfile): Promise<void> {
  const checks = offering.get(conversationId) ?? new Set<Promise<void>>();
  offering.set(conversationId, checks);
  const check = checkOffered(conversationId, files, profile);
  checks.add(check);
  try {
    await check;
  } finally {
    checks.delete(check);
  }
}

/**
 * Undefined when every file offered to the conversation's composer has been checked; else resolves once they have
 * (attached or refused). A Send pressed meanwhile waits for it: the files chosen before it go with the message, not
 * with the next one (the check loads its rules and reads a text file's first bytes first).
 */
export function offersChecked(conversationId: string): Promise<unknown> | undefined {
  const checks = offering.get(conversationId);
  return checks && checks.size > 0 ? Promise.allSettled([...checks]) : undefined;
}

async function checkOffered(conversationId: string, files: readonly File[], profile: ImagesProfile): Promise<void> {
  const { bytesAreText, classifyAttachment, profileAcceptsImages, refusalOf, TEXT_SNIFF_BYTES } = await import('../../schema/attachments/attachment-kinds');
  const acceptsImages = profile ? profileAcceptsImages(profile) : true;
  // A binary file named .txt is told by its first bytes, here rather than at Send (the worker checks them all again).
  const binary = await Promise.all(
    files.map(async (file) => classifyAttachment(file.name, file.type)?.kind === 'text' && !bytesAreText(new Uint8Array(await file.slice(0, TEXT_SNIFF_BYTES).arrayBuffer()), file.size > TEXT_SNIFF_BYTES)),
  );
  // Read after the awaits: files offered meanwhile (a second drop) are counted.
  const attached = [...pendingAttachments(conversationId)];
  const refused: AttachmentRefusal[] = [];
  for (const [index, file] of files.entries()) {
    const refusal = refusalOf(file, attached.length, acceptsImages) ?? (binary[index] ? { reason: 'unsupported_type' as const, name: file.name } : undefined);
    if (refusal) {
      // "Too many" once, not once per file left over.
      if (refusal.reason !== 'too_many' || !refused.some((earlier) => earlier.reason === 'too_many')) refused.push(refusal);
      continue;
    }
    attached.push({ key: `attachment-${nextKey++}`, file, kind: classifyAttachment(file.name, file.type)!.kind });
  }
  setPending((current) => ({ ...current, [conversationId]: attached }));
  setRefusals((current) => ({ ...current, [conversationId]: refused }));
}

export function removeAttachment(conversationId: string, key: string): void {
  setPending((current) => ({ ...current, [conversationId]: pendingAttachments(conversationId).filter((attachment) => attachment.key !== key) }));
  setRefusals((current) => ({ ...current, [conversationId]: [] }));
}

/** After a send: the files went with the message. */
export function clearAttachments(conversationId: string): void {
  setPending((current) => ({ ...current, [conversationId]: [] }));
  setRefusals((current) => ({ ...current, [conversationId]: [] }));
}

/** The files in a drag or a paste, if it carries any. */
export function filesIn(transfer: DataTransfer | null): File[] {
  return transfer ? Array.from(transfer.files) : [];
}
