import { render, screen } from '@solidjs/testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, ToolCallBlock } from '../../src/schema/messages/blocks';
import { WireError } from '../../src/schema/protocol';
import type { WorkerClient } from '../../src/ui/state/channel';
import { ToolCallCard } from '../../src/ui/requests/ToolCallCard';
import { describeError } from '../../src/ui/common/error-words';
import { setLocale } from '../../src/ui/i18n/i18n';

afterEach(() => setLocale('en'));

const client = { send: async () => ({}) } as unknown as Pick<WorkerClient, 'send'>;

/** A call an import closed unrun (core/transfer/import-checks.ts, disarmImported). */
const importedCall: ToolCallBlock = {
  type: 'tool_call',
  toolCallId: 'call-1',
  toolName: 'mcp__everything__echo',
  args: { message: 'attacker' },
  status: 'stopped',
  result: 'Not run here: this call came from an imported file.',
};
const importedApproval: ApprovalRequest = { type: 'request', kind: 'permission', requestId: 'call-1', toolCallId: 'call-1', status: 'denied', payload: { toolName: 'mcp__everything__echo' }, resolution: 'imported', resolvedAt: 1 };

describe('a tool call closed by an import', () => {
  it('says it was not run and why, never "Allowed", and offers no Allow', () => {
    render(() => <ToolCallCard block={importedCall} approval={importedApproval} conversationId="c1" messageId="m1" client={client} />);
    expect(screen.getByText('Not run: imported from a file. Tool calls are only approved in this browser.')).toBeInTheDocument();
    expect(screen.queryByText('Allowed')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Run again' })).toBeNull();
  });

  it('says so in Chinese too', async () => {
    await setLocale('zh-CN');
    render(() => <ToolCallCard block={importedCall} approval={importedApproval} conversationId="c1" messageId="m1" client={client} />);
    expect(screen.getByText('未运行：来自导入的文件。工具调用只能在此浏览器中批准。')).toBeInTheDocument();
  });
});

describe('a server name that collides once normalised', () => {
  const refused = new WireError({ code: 'invalid_command', reason: 'server_name_taken', params: { name: 'Everything', prefix: 'mcp__everything__' }, message: 'English for developers', field: 'server.name' });

  it('is refused in words that say which server holds the tool names', async () => {
    expect(describeError(refused).text).toBe('A server named “Everything” already uses the tool names mcp__everything__…; give this one another name.');
    await setLocale('zh-CN');
    expect(describeError(refused).text).toBe('名为“Everything”的服务器已在使用工具名 mcp__everything__…；请给这个服务器另起一个名字。');
  });
});
