// The conversations the benchmark opens, as a Parley export file (the format Settings → Import conversations reads).

const PARAGRAPHS = [
  'Here is a **short** answer with `inline code`, a [link](https://example.com) and some plain words to wrap.',
  'A list of things:\n\n- the first item\n- the second item, a little longer than the first\n- the third',
  'Some code:\n\n```ts\nconst answer = 42;\nconsole.log(answer);\n```',
  '> A quoted line, then a normal sentence that goes on for a while so that the paragraph wraps twice or more.',
];

/** The text the last message of an n-message conversation ends with: seeing it painted means the open is done. */
export const endMarker = (count) => `bench-end-${count}`;

/** A conversation id per size, stable across runs so before/after runs open the same data. */
export const conversationId = (count) => `bench-${count}`;

/** `count` alternating user and assistant messages, with Markdown in the replies; the last one holds the marker. */
export function conversationOf(count, now = 1_700_000_000_000) {
  const id = conversationId(count);
  const messages = [];
  for (let index = 0; index < count; index += 1) {
    const role = index % 2 === 0 ? 'user' : 'assistant';
    const text = role === 'user'
      ? `Question number ${index / 2 + 1}: could you explain this part again, in other words?`
      : `${PARAGRAPHS[index % PARAGRAPHS.length]}\n\nReply ${index}.`;
    messages.push({
      id: `${id}-m${index}`,
      conversationId: id,
      seq: index,
      role,
      blocks: [{ type: 'text', text: index === count - 1 ? `${text} ${endMarker(count)}` : text }],
      status: 'complete',
      createdAt: now + index * 1000,
      updatedAt: now + index * 1000,
    });
  }
  return {
    conversation: { id, title: `bench ${count} messages`, createdAt: now, updatedAt: now + count * 1000, runState: 'idle', completedSteps: Math.floor(count / 2) },
    messages,
  };
}

/** One export file holding a conversation of each size. */
export function exportFile(sizes) {
  return { format: 'parley-export', version: 1, exportedAt: Date.now(), conversations: sizes.map((count) => conversationOf(count)) };
}
