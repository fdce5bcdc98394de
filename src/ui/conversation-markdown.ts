import type { Block } from '../schema/blocks';
import type { Conversation, Message } from '../schema/records';
import type { WorkerClient } from './channel';
import { t } from './i18n/i18n';

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

/** The message as stored: one whose long texts the worker clipped for the page (`clippedFrom`) is asked for whole. */
export async function wholeMessage(client: Pick<WorkerClient, 'send'>, message: Message): Promise<Message> {
  const clipped = message.blocks.some((block) => (block.type === 'text' || block.type === 'reasoning') && block.clippedFrom !== undefined);
  return clipped ? (await client.send({ type: 'message.whole', messageId: message.id })).message : message;
}

/**
 * One conversation as Markdown, as a person reads it: the title, then each message under its author, replies as the
 * model wrote them, tool calls and their results in fenced blocks, questions with the answers given. Nothing runs.
 */
export function conversationMarkdown(conversation: Pick<Conversation, 'title'>, messages: readonly Message[]): string {
  const parts = [`# ${conversation.title}`];
  for (const message of messages) {
    const author = message.role === 'user' ? t('message.user') : t('message.assistant');
    const body = message.blocks.map(blockMarkdown).filter((text) => text.trim() !== '');
    if (body.length > 0) parts.push(`## ${author}`, ...body);
  }
  return `${parts.join('\n\n')}\n`;
}

function blockMarkdown(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'reasoning':
      return quote(block.text);
    case 'tool_call':
      return [`**${block.toolName}**`, fence(JSON.stringify(block.args ?? {}, null, 2), 'json'), ...(block.result !== undefined ? [fence(block.result)] : [])].join('\n\n');
    case 'question_request':
      return block.questions
        .map((question, index) => {
          const answer = block.answers?.[index];
          const chosen = answer ? [...answer.selected, ...(answer.other ? [answer.other] : [])].join(', ') : '';
          return `> **${question.header}**: ${question.question}${chosen ? `\n>\n> → ${chosen}` : ''}`;
        })
        .join('\n\n');
    case 'elicitation_request':
      return quote(`${block.serverName}: ${block.message}`);
    case 'error':
      return quote(block.message);
  }
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
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
