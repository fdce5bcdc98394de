import type { Message } from '../../schema/records';
import type { WorkerClient } from '../state/channel';
import { isProse } from '../../schema/messages/prose';

/** The message as stored: one whose long texts the worker clipped for the page (`clippedFrom`) is asked for whole. */
export async function wholeMessage(client: Pick<WorkerClient, 'send'>, message: Message): Promise<Message> {
  const clipped = message.blocks.some((block) => isProse(block) && block.clippedFrom !== undefined);
  return clipped ? (await client.send({ type: 'message.whole', messageId: message.id })).message : message;
}
