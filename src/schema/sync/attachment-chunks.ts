import { z } from 'zod';
import { MAX_IMAGE_BYTES } from '../limits';

// Sync of a file's bytes (README, "Sync between your devices"): each file travels as chunk documents, each sealed on
// its own and bound to its document id. What a device decrypts from the server is untrusted: validated like any input.

/**
 * What every chunk of a file says of the file and of itself, sealed with its bytes: any chunk, alone, says whose file
 * it is, how many chunks make it and what the whole must hash to, so a device needs no other document to put it together.
 */
export const AttachmentChunkHeader = z.object({
  /** The format of this header and of the bytes after it. */
  v: z.literal(1),
  attachmentId: z.string().min(1).max(100),
  conversationId: z.string().min(1).max(100),
  messageId: z.string().min(1).max(200),
  mimeType: z.string().min(1).max(200),
  /** The whole file's size, in bytes. */
  size: z.number().int().min(0).max(MAX_IMAGE_BYTES),
  /** How many chunks make the file, and which one this is (from 0). */
  count: z.number().int().min(1).max(1000),
  index: z.number().int().min(0).max(999),
  /** SHA-256 of the whole file, hex: the file put together is checked against it before it is stored. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AttachmentChunkHeader = z.infer<typeof AttachmentChunkHeader>;
