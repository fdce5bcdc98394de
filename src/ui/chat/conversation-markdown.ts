import type { AttachmentMeta } from '../../schema/attachments/attachments';
import { visibleFileName } from '../../schema/attachments/file-name';
import type { Conversation, Message } from '../../schema/records';
import type { WorkerClient } from '../state/channel';
import { fileSize } from '../attachments/file-size';
import { t } from '../i18n/i18n';
import { shownTitle } from './conversation-title';
import { wholeMessage } from '../messages/whole-message';
import type { Block } from '../../schema/messages/blocks';
import type { MarkdownKit } from './markdown-kit';

const PAGE = 500;

/** Every message on the conversation's path (the versions on screen), read page by page from the newest. */
export async function readWholePath(client: Pick<WorkerClient, 'send'>, conversationId: string): Promise<Message[]> {
  const pages: Message[][] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await client.send({ type: 'conversation.messages', conversationId, limit: PAGE, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
    pages.unshift(page.messages);
    if (page.earlier === 0 || page.messages.length === 0) break;
    beforeSeq = page.messages[0]!.seq;
  }
  return Promise.all(pages.flat().map((message) => wholeMessage(client, message)));
}


/** How far a message's own headings go down, so that none stands level with the `## You` / `## Parley` above it. */
const HEADING_SHIFT = 2;

/**
 * One conversation as Markdown, as a person reads it: the title, then each message under its author (`##`), replies as
 * the model wrote them but with their headings moved below that level, the reasoning in a quote labelled as such, the
 * files sent with a message, tool calls and their results in fenced blocks, questions with the answers given. Nothing
 * runs. Each block is told by its kind's `markdown` (`blockMarkdown` of ui/messages/block-views.tsx), passed in by the
 * page, which holds that table already: this module, loaded with the first export, imports none of it.
 */
export function conversationMarkdown(conversation: Pick<Conversation, 'title'>, messages: readonly Message[], blockMarkdown: (block: Block, kit: MarkdownKit) => string): string {
  const parts = [`# ${shownTitle(conversation.title)}`];
  for (const message of messages) {
    const author = message.role === 'user' ? t('message.user') : t('message.assistant');
    const body = message.blocks.map((block) => blockMarkdown(block, KIT)).filter((text) => text.trim() !== '');
    if (message.attachments?.length) body.push(filesMarkdown(message.attachments));
    if (body.length > 0) parts.push(`## ${author}`, ...body);
  }
  return `${parts.join('\n\n')}\n`;
}

/** "_Files sent with this message:_ `notes.md` (22 bytes), `pixel.png` (70 bytes)": names as the app shows them. */
function filesMarkdown(files: readonly AttachmentMeta[]): string {
  return `_${t('attach.sent')}:_ ${files.map((file) => `${codeSpan(visibleFileName(file.name))} (${fileSize(file.size)})`).join(', ')}`;
}

/** The helpers each kind's `markdown` is given (see MarkdownKit). */
const KIT: MarkdownKit = { prose: (markdown) => demoteHeadings(markdown, HEADING_SHIFT), quote, fence };

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** A code span that no backtick run inside `text` can close early. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  const padding = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${marks}${padding}${text}${padding}${marks}`;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
/** A line that begins a block of its own (a list item, a quote, a table row, a thematic break) or is blank. */
const BLOCK_START = /^ {0,3}(?:[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|[>|]|$)|^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/**
 * Markdown with every heading `shift` levels lower (at most `######`), outside fenced code: ATX headings (`## Plan`)
 * and setext ones (a paragraph underlined with `===` or `---`, made ATX). A reply's own `## Plan` would otherwise stand
 * level with the export's `## Parley`.
 */
export function demoteHeadings(markdown: string, shift: number): string {
  const lines: string[] = [];
  let fence: string | undefined;
  /** How many of the last lines are a plain paragraph, which a setext underline would make a heading. */
  let paragraph = 0;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      lines.push(line);
      const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
      if (closing.test(line)) fence = undefined;
      continue;
    }
    const opened = FENCE_OPEN.exec(line);
    const atx = ATX_HEADING.exec(line);
    const underline = SETEXT_UNDERLINE.exec(line);
    if (opened) {
      fence = opened[1]!;
      lines.push(line);
      paragraph = 0;
    } else if (atx) {
      lines.push(`${atx[1]}${'#'.repeat(Math.min(6, atx[2]!.length + shift))}${line.slice(atx[0].length)}`);
      paragraph = 0;
    } else if (underline && paragraph > 0) {
      const text = lines.splice(lines.length - paragraph).map((part) => part.trim()).join(' ');
      lines.push(`${'#'.repeat(Math.min(6, (underline[1]!.startsWith('=') ? 1 : 2) + shift))} ${text}`);
      paragraph = 0;
    } else {
      const plain = line.trim() !== '' && !BLOCK_START.test(line) && (paragraph > 0 || !line.startsWith('    '));
      lines.push(line);
      paragraph = plain ? paragraph + 1 : 0;
    }
  }
  return lines.join('\n');
}

/** A fenced block that no backtick run inside `text` can close early. */
function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}

/** A file name from a title: no path separators or characters a file system refuses. */
export function markdownFileName(title: string): string {
  const cleaned = title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${cleaned || 'conversation'}.md`;
}
