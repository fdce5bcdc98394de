import { render, screen } from '@solidjs/testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/state/channel';
import { MessageView } from '../../src/ui/messages/MessageView';
import { setLocale } from '../../src/ui/i18n/i18n';

// A reply made without the tools (they did not fit in the in-browser model's context) says so to the user,
// from the notice stored on it, in the UI's language.

function reply(notices?: Message['notices']): Message {
  return {
    id: 'a1',
    conversationId: 'c1',
    seq: 1,
    role: 'assistant',
    blocks: [{ type: 'text', text: 'A plain answer.' }],
    status: 'complete',
    createdAt: 0,
    updatedAt: 0,
    ...(notices ? { notices } : {}),
  };
}

afterEach(() => setLocale('en'));

describe('a notice on a reply', () => {
  it('says in English that the tools were left out, with the context size', () => {
    render(() => <MessageView message={reply([{ key: 'tools_left_out', params: { tokens: 2048 } }])} client={{} as WorkerClient} />);
    expect(screen.getByRole('article', { name: 'Parley' })).toHaveTextContent("Tools were left out: this model's context (2,048 tokens) cannot hold them.");
  });

  it('says it in Chinese in a Chinese UI', async () => {
    await setLocale('zh-CN');
    render(() => <MessageView message={reply([{ key: 'tools_left_out', params: { tokens: 2048 } }])} client={{} as WorkerClient} />);
    const article = screen.getByRole('article');
    expect(article).toHaveTextContent('本次回复未使用工具：此模型的上下文（2,048 个 token）容纳不下它们。');
    expect(article.textContent).not.toContain('Tools were left out');
  });

  it('says that a file had not reached this device, in English and in Chinese', async () => {
    render(() => <MessageView message={reply([{ key: 'files_not_here' }])} client={{} as WorkerClient} />);
    expect(screen.getByRole('article', { name: 'Parley' })).toHaveTextContent('Made without a file that had not reached this device yet: it was still syncing from another device.');
    await setLocale('zh-CN');
    expect(screen.getByRole('article')).toHaveTextContent('本次回复未包含一个尚未到达此设备的文件：它仍在从另一台设备同步。');
  });

  it('shows nothing for a reply without notices, or for a notice this version does not know', () => {
    render(() => <MessageView message={reply([{ key: 'something_newer' }])} client={{} as WorkerClient} />);
    render(() => <MessageView message={reply()} client={{} as WorkerClient} />);
    expect(document.querySelectorAll('.message-notice')).toHaveLength(0);
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });
});
