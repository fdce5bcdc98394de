import { fireEvent, render, screen } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { DataSettings } from '../../src/ui/settings/DataSettings';
import { formatUsage } from '../../src/ui/messages/MessageView';
import { english } from '../../src/ui/i18n/dictionary';
import { fileSize } from '../../src/ui/attachments/file-size';
import { zhCN } from '../../src/ui/i18n/dictionary-zh-CN';
import { settingsEnglish } from '../../src/ui/i18n/settings/settings-dictionary';
import { settingsZhCN } from '../../src/ui/i18n/settings/settings-dictionary-zh-CN';
import { setLocale } from '../../src/ui/i18n/i18n';

afterEach(() => setLocale('en'));

describe('plurals', () => {
  it('no string in either language hedges a count with "(s)"', () => {
    for (const dictionary of [english, zhCN, settingsEnglish, settingsZhCN]) {
      expect(Object.entries(dictionary).filter(([, text]) => /\(s\)|（s）/.test(text))).toEqual([]);
    }
  });

  it('says a count in the form the UI language’s plural rules give it', async () => {
    expect(formatUsage({ inputTokens: 1, outputTokens: 2 })).toBe('1 token in · 2 tokens out');
    expect(formatUsage({ inputTokens: 12, outputTokens: 1 })).toBe('12 tokens in · 1 token out');
    await setLocale('zh-CN');
    expect(formatUsage({ inputTokens: 1, outputTokens: 2 })).toBe('输入 1 个 token · 输出 2 个 token');
  });

  it('says a file’s size in bytes, one or several', () => {
    expect(fileSize(1)).toBe('1 byte');
    expect(fileSize(0)).toBe('0 bytes');
    expect(fileSize(22)).toBe('22 bytes');
  });

  it('says how many tool calls an import closed, one or several', async () => {
    const repairs = [
      { conversationTitle: 'Trip', code: 'tool_call_not_run', count: 1 },
      { conversationTitle: 'Work', code: 'tool_call_not_run', count: 3 },
    ];
    const send = vi.fn(async (command: { type: string }) => (command.type === 'storage.conversationSizes' ? { largest: [], conversations: 0, totalBytes: 0 } : { imported: 2, skipped: 0, repairs }));
    const services = { client: { send, onEvent: () => () => undefined }, state: {}, dispatch: () => undefined } as unknown as AppServices;
    render(() => (
      <AppContext.Provider value={services}>
        <DataSettings />
      </AppContext.Provider>
    ));
    fireEvent.change(screen.getByLabelText('Import conversations'), { target: { files: [new File(['{}'], 'parley.json')] } });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('“Trip”: 1 tool call that had not run was closed as not run.');
    expect(status).toHaveTextContent('“Work”: 3 tool calls that had not run were closed as not run.');
  });

  it('says how many messages one of the largest conversations holds, one or several', async () => {
    const largest = [
      { conversationId: 'a', title: 'Alpha', bytes: 2048, messages: 1 },
      { conversationId: 'b', title: 'Beta', bytes: 1024, messages: 5 },
    ];
    const send = vi.fn(async () => ({ largest, conversations: 2, totalBytes: 3072 }));
    const services = { client: { send, onEvent: () => () => undefined }, state: {}, dispatch: () => undefined } as unknown as AppServices;
    render(() => (
      <AppContext.Provider value={services}>
        <DataSettings />
      </AppContext.Provider>
    ));
    const list = await screen.findByRole('list', { name: 'Largest conversations' });
    expect(list).toHaveTextContent(/Alpha about 2 KB, 1 message(?!s)/);
    expect(list).toHaveTextContent('Beta about 1 KB, 5 messages');
  });
});
