import * as z from '../zod-mini';
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
  attachmentId: z.string().check(z.minLength(1), z.maxLength(100)),
  conversationId: z.string().check(z.minLength(1), z.maxLength(100)),
  messageId: z.string().check(z.minLength(1), z.maxLength(200)),
  mimeType: z.string().check(z.minLength(1), z.maxLength(200)),
  /** The whole file's size, in bytes. */
  size: z.number().check(z.int(), z.gte(0), z.lte(MAX_IMAGE_BYTES)),
  /** How many chunks make the file, and which one this is (from 0). */
  count: z.number().check(z.int(), z.gte(1), z.lte(1000)),
  index: z.number().check(z.int(), z.gte(0), z.lte(999)),
  /** SHA-256 of the whole file, hex: the file put together is checked against it before it is stored. */
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});
export type AttachmentChunkHeader = z.infer<typeof AttachmentChunkHeader>;
