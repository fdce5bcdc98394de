import * as z from '../zod-mini';
import { MAX_ATTACHMENT_NAME, MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGE_BYTES } from '../limits';

export { MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGE_BYTES, MAX_TEXT_BYTES } from '../limits';

/**
 * A file sent with a message, as the message holds it: what it is, never its bytes. The bytes are a Blob in the
 * `attachments` store under the same id (StoredAttachment), written in the transaction that writes the message.
 */
export const AttachmentMeta = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  name: z.string().check(z.minLength(1), z.maxLength(MAX_ATTACHMENT_NAME)),
  mimeType: z.string().check(z.minLength(1), z.maxLength(200)),
  size: z.number().check(z.int(), z.gte(0), z.lte(MAX_IMAGE_BYTES)),
  kind: z.enum(['image', 'text']),
});
export type AttachmentMeta = z.infer<typeof AttachmentMeta>;

export const MessageAttachments = z.array(AttachmentMeta).check(z.maxLength(MAX_ATTACHMENTS_PER_MESSAGE));

/** A record of the `attachments` store: the bytes of one AttachmentMeta, and whose they are (for deleting them with it). */
export const StoredAttachment = z.object({
  id: z.string(),
  conversationId: z.string(),
  messageId: z.string(),
  blob: z.instanceof(Blob),
});
export type StoredAttachment = z.infer<typeof StoredAttachment>;

/** A file as the composer sends it with `message.send`; the worker classifies and checks it again. */
export const AttachmentInput = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_ATTACHMENT_NAME)),
  type: z.string().check(z.maxLength(200)),
  blob: z.instanceof(Blob),
});
export type AttachmentInput = z.infer<typeof AttachmentInput>;

/** The longest base64 text of one attachment in an export: the largest image, encoded (4 characters per 3 bytes). */
const MAX_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/** An attachment's bytes in an export file, base64; its message holds the rest (AttachmentMeta). */
export const ExportedAttachment = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  messageId: z.string().check(z.minLength(1), z.maxLength(200)),
  base64: z.string().check(z.maxLength(MAX_BASE64), z.regex(/^[A-Za-z0-9+/]*={0,2}$/)),
});
export type ExportedAttachment = z.infer<typeof ExportedAttachment>;
