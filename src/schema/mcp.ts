import * as z from './zod-mini';
import { ToolAnnotations } from './messages/blocks';

/** How a tool call is let through: asked each time, run without asking, or not offered to the model. */
export const ToolPermission = z.enum(['ask', 'allow', 'never']);
export type ToolPermission = z.infer<typeof ToolPermission>;

const recordId = z.string().check(z.minLength(1), z.maxLength(100));

/** An MCP server as the Settings form submits it. An absent token keeps the stored one while the URL's origin stays the same. */
export const McpServerInput = z.object({
  id: z.optional(recordId),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
  url: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
  token: z.optional(z.string().check(z.trim(), z.maxLength(4000))),
  /** True removes the stored token (an empty `token` would be ambiguous with "keep it"). */
  clearToken: z.optional(z.boolean()),
});
export type McpServerInput = z.infer<typeof McpServerInput>;

/** Why a server is not (fully) usable; the message is in words, for the user. */
export const McpServerError = z.object({
  code: z.enum(['unreachable', 'cors', 'unauthorized', 'protocol', 'invalid_url', 'invalid_tools']),
  message: z.string(),
});
export type McpServerError = z.infer<typeof McpServerError>;

/** One tool of a connected server, as Settings shows it. */
export const McpToolView = z.object({
  /** Model-facing name, `mcp__<server>__<tool>`; permissions are keyed by it. */
  name: z.string(),
  serverToolName: z.string(),
  title: z.optional(z.string()),
  description: z.string(),
  annotations: z.optional(ToolAnnotations),
  permission: ToolPermission,
  inputSchema: z.record(z.string(), z.unknown()),
});
export type McpToolView = z.infer<typeof McpToolView>;

/** What the UI may see of a server: everything but the token, which is masked. Status is this tab's connection. */
export const McpServerView = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  tokenMasked: z.string(),
  status: z.enum(['disconnected', 'connecting', 'connected', 'error']),
  /** Set when status is 'error'; with 'connected', `invalid_tools` says which tools were left out. */
  error: z.optional(McpServerError),
  tools: z.array(McpToolView),
});
export type McpServerView = z.infer<typeof McpServerView>;
