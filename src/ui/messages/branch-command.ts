import { WireError } from '../../schema/wire-error';
import type { AppServices } from '../state/app-context';

/** A command that leaves the branch on screen; sent again with `discardPending` once the user agreed. */
export type BranchCommand =
  | { type: 'message.regenerate'; conversationId: string; messageId: string; discardPending?: boolean }
  | { type: 'message.edit'; conversationId: string; messageId: string; text: string; discardPending?: boolean }
  | { type: 'message.selectVersion'; conversationId: string; messageId: string; discardPending?: boolean };

/**
 * Sends a command that leaves the branch on screen; when a request waits in that branch, `confirm` gets the command to
 * send again with `discardPending` once the user agreed ("Leave the waiting request?").
 */
export async function sendBranchCommand(app: AppServices, command: BranchCommand, confirm: (command: BranchCommand) => void): Promise<void> {
  try {
    await app.client.send(command);
  } catch (error) {
    if (error instanceof WireError && error.reason === 'request_pending_in_branch') confirm(command);
  }
}
