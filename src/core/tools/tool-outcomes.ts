import type { ApprovalRequest, ToolCallBlock } from '../../schema/messages/blocks';

/** What the model reads about tool calls that did not simply run. One place, so the texts stay consistent. */
export const AFTER_QUESTION_TEXT =
  'Not run: the question tool must be the only or the last tool call of a turn, so calls after it are refused. Call this tool again after the user answers, if it is still needed.';
export const STOPPED_BEFORE_TOOL_TEXT = 'Not run: the user stopped the run before this tool call.';
export const STOPPED_WHILE_RUNNING_TEXT = 'The user stopped the run while this tool was running; the request was cancelled, and it may have partly run.';
export const INTERRUPTED_TOOL_TEXT = 'This call was cut off while it ran (the app closed or crashed); it may or may not have run.';
export const IMPORTED_NOT_RUN_TEXT = 'Not run here: this call came from an imported file, and tool calls are only approved in the browser that runs them. Call the tool again if it is still needed; the user will be asked.';
export const IMPORTED_QUESTION_TEXT = 'Not answered here: these questions came from an imported file, and questions are only answered in the browser that asked them. Ask again if the answers are still needed.';
export const CHAT_INSTEAD_OF_APPROVAL_TEXT = 'Not run: the user replied in chat instead of approving this call. Their message follows as the next user message.';

export function deniedText(reason: string | undefined): string {
  const said = reason?.trim() ? ` The user's reason: ${JSON.stringify(reason.trim())}.` : ' The user gave no reason.';
  return `Not run: the user denied this tool call.${said} Do not call it again unless the user asks you to; adapt to what they said.`;
}

export function skippedAfterInterruptionText(): string {
  return `${INTERRUPTED_TOOL_TEXT} The user chose not to run it again.`;
}

/** A call of a tool the user set to "Never": said plainly, so the model neither retries it nor hunts for a typo. */
export function neverToolText(name: string): string {
  return `Not run: the user set ${name} to "Never", so it is not available. Do not call it again unless the user changes that.`;
}

export function unknownToolText(name: string, available: readonly string[]): string {
  const mcp = name.startsWith('mcp__') ? ' No connected MCP server offers a tool of that name (the server may be disconnected, removed, or the tool set to "Never").' : '';
  return `Unknown tool "${name}".${mcp} Available tools: ${available.join(', ') || 'none'}.`;
}

/**
 * The text the model reads for a call that ran: its output, prefixed with what the user did first (edited the
 * arguments, or ran it again after an interruption), so the model never assumes its own arguments were used.
 */
export function ranText(block: ToolCallBlock, approval: ApprovalRequest | undefined, output: string): string {
  const notes: string[] = [];
  if (approval?.kind === 'rerun') notes.push('A first attempt was cut off and may or may not have run; the user chose to run it again.');
  if (approval?.resolution === 'edited') notes.push(`The user edited the arguments before this call ran. It ran with: ${JSON.stringify(block.args)}.`);
  return notes.length > 0 ? `${notes.join(' ')}\n\n${output}` : output;
}
