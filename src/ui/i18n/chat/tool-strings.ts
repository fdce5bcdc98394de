/**
 * The statuses a tool call shows before its card's code loads (QueuedToolCall.tsx); the card's own strings load with it
 * (views/request-view-strings.ts).
 */
const en = {
  'tool.status.pending': 'Queued',
  'tool.status.running': 'Running…',
} as const;

export const toolStrings = { en };
