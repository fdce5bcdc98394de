import type { RequestBlock, ToolSourceRecord } from '../../schema/messages/blocks';
import type { ToolPermission } from '../../schema/mcp';
import type { ToolProgress } from '../../schema/events';

/** Where a tool comes from: shown on the approval card and kept on the record of what ran (with its origin always). */
type ToolSource = Omit<ToolSourceRecord, 'origin' | 'inputSchema'> & { origin: string };

/** What one run of a tool produced: the text the model reads (already bounded, a truncation said in it), and whether it failed. */
export interface ToolOutput {
  text: string;
  isError?: boolean;
}

export interface ElicitationRequest {
  message: string;
  requestedSchema: Record<string, unknown>;
}
export type ElicitationResponse = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface ToolContext {
  now(): number;
  signal: AbortSignal;
  /** Asks the user on the tool's behalf (MCP elicitation). Absent where nobody can be asked: then decline. */
  elicit?(request: ElicitationRequest): Promise<ElicitationResponse>;
  /** Tells the user how far the call is (an MCP server's progress notifications); transient, never stored. */
  reportProgress?(progress: ToolProgress): void;
}

export type ArgumentsCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** A tool the model can call: data plus execute. */
export interface Tool {
  /** Model-facing name. */
  name: string;
  description: string;
  /** JSON Schema object sent to providers. */
  inputSchema: Record<string, unknown>;
  permission: ToolPermission;
  source?: ToolSource;
  /** Validates arguments (the model's, or the user's edit) against the input schema; the error names the field. */
  check(args: unknown): ArgumentsCheck;
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
  /**
   * A tool whose every call is a request for the user (the question tool): its checked arguments become the pending
   * request, and the user's resolution is its result. Such a tool is never executed.
   */
  ask?(args: unknown, toolCallId: string): RequestBlock;
  /** An invalid call of this tool counts towards the "invalid in a row" limit (a model stuck re-asking badly). */
  countsInvalid?: boolean;
}
