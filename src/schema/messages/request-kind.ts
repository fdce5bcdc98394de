import * as z from '../zod-mini';

/**
 * Which request a block asks (core/requests/requests.ts and ui/requests/request-views.ts describe each): a question, a
 * tool call's permission, whether to run again a call cut off while it ran, an MCP server's form. Its own module: a
 * command names it (commands.ts), and the worker's code for a first reply then holds no block schema (blocks.ts).
 */
export const RequestKind = z.enum(['question', 'permission', 'rerun', 'elicitation']);
export type RequestKind = z.infer<typeof RequestKind>;
