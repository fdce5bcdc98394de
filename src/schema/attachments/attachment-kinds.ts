/**
 * What Parley attaches to a message, and how much: the rules the composer applies as files arrive and the worker applies
 * again when they are sent. No zod: the composer loads it with the first file offered. Its limits live in limits.ts,
 * which the first load has anyway.
 */

import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGE_BYTES, MAX_TEXT_BYTES } from '../limits';

export { MAX_ATTACHMENT_NAME, MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGE_BYTES, MAX_TEXT_BYTES } from '../limits';
export { profileAcceptsImages } from '../provider-kinds';

export type AttachmentKind = 'image' | 'text';

/** Image types both OpenAI-compatible servers and Anthropic take. SVG is left out: it is a document, not pixels. */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Text files by extension: browsers give many of them no type at all (.ts, .md on some systems) or a wrong one. */
const TEXT_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values',
  json: 'application/json', jsonl: 'application/jsonl', yaml: 'text/yaml', yml: 'text/yaml', toml: 'text/plain', xml: 'text/xml',
  html: 'text/html', css: 'text/css', js: 'text/javascript', mjs: 'text/javascript', cjs: 'text/javascript', jsx: 'text/javascript',
  ts: 'text/x-typescript', tsx: 'text/x-typescript', mts: 'text/x-typescript', cts: 'text/x-typescript', py: 'text/x-python',
  rb: 'text/x-ruby', go: 'text/x-go', rs: 'text/x-rust', java: 'text/x-java', kt: 'text/x-kotlin', c: 'text/x-c', h: 'text/x-c',
  cpp: 'text/x-c++', hpp: 'text/x-c++', cs: 'text/x-csharp', swift: 'text/x-swift', php: 'text/x-php', sh: 'text/x-shellscript',
  sql: 'text/x-sql', log: 'text/plain', ini: 'text/plain', svg: 'image/svg+xml', tex: 'text/x-tex', r: 'text/x-r', lua: 'text/x-lua',
  dart: 'text/x-dart', vue: 'text/plain', svelte: 'text/plain',
};

/** Non-`text/*` types that are text. */
const TEXT_APPLICATION_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-yaml', 'application/yaml', 'application/sql', 'application/x-sh', 'application/jsonl', 'application/x-ndjson']);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * How a file is sent, from its name and the browser's type: `image` (a picture the model sees), `text` (its text,
 * under its name) or undefined (nothing accepts it: refused in words). `mimeType` is what the model is told: for a text
 * file whose extension Parley knows, the extension's type, whatever the browser guessed (Chromium on Linux calls `.ts`
 * `text/vnd.trolltech.linguist`, Windows `video/mp2t`).
 */
export function classifyAttachment(name: string, browserType: string): { kind: AttachmentKind; mimeType: string } | undefined {
  const type = browserType.toLowerCase().split(';')[0]!.trim();
  if (IMAGE_TYPES.has(type)) return { kind: 'image', mimeType: type };
  const byExtension = TEXT_TYPES_BY_EXTENSION[extensionOf(name)];
  if (byExtension) return { kind: 'text', mimeType: byExtension };
  if (type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type)) return { kind: 'text', mimeType: type };
  return undefined;
}

/** How much of a text file the composer reads as it is offered, to tell a binary file by its bytes (see bytesAreText). */
export const TEXT_SNIFF_BYTES = 8192;

/**
 * Whether bytes are text as Parley sends it: UTF-8 with no NUL, so a binary file named `.txt` is refused rather than sent
 * as noise. `partial`: the bytes are only the start of the file, which may end inside a character.
 */
export function bytesAreText(bytes: Uint8Array, partial = false): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
    return true;
  } catch {
    return false;
  }
}

/** The size limit of a kind, in bytes. */
export function attachmentLimit(kind: AttachmentKind): number {
  return kind === 'image' ? MAX_IMAGE_BYTES : MAX_TEXT_BYTES;
}

/** Why a file cannot go with a message, or undefined when it can. The UI words the reason; the worker refuses with it. */
export type AttachmentRefusal =
  | { reason: 'unsupported_type'; name: string }
  | { reason: 'too_large'; name: string; size: number; limit: number }
  | { reason: 'too_many'; limit: number }
  | { reason: 'images_not_accepted'; name: string };

/** Checks one file against the rules; `count` is how many are attached already, `acceptsImages` the model's. */
export function refusalOf(file: { name: string; type: string; size: number }, count: number, acceptsImages: boolean): AttachmentRefusal | undefined {
  if (count >= MAX_ATTACHMENTS_PER_MESSAGE) return { reason: 'too_many', limit: MAX_ATTACHMENTS_PER_MESSAGE };
  const kind = classifyAttachment(file.name, file.type);
  if (!kind) return { reason: 'unsupported_type', name: file.name };
  if (kind.kind === 'image' && !acceptsImages) return { reason: 'images_not_accepted', name: file.name };
  const limit = attachmentLimit(kind.kind);
  if (file.size > limit) return { reason: 'too_large', name: file.name, size: file.size, limit };
  return undefined;
}

