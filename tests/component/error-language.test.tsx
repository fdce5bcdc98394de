import { fireEvent, render, screen, within } from '@solidjs/testing-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WireError, type ConnectionTestResult } from '../../src/schema/protocol';
import type { Conversation, Message } from '../../src/schema/records';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import type { WorkerClient } from '../../src/ui/state/channel';
import { statusText } from '../../src/ui/chat/ChatHeader';
import { DataSettings } from '../../src/ui/settings/DataSettings';
import { MessageView } from '../../src/ui/messages/MessageView';
import { ErrorToasts } from '../../src/ui/shell/StatusBanners';
import { createToasts } from '../../src/ui/common/error-report';
import { describeError, describeRunError, describeStorageError, describeTestResult } from '../../src/ui/common/error-words';
import { setLocale } from '../../src/ui/i18n/i18n';

// The worker speaks English to developers only: in a Chinese UI, a worker error reads as a Chinese sentence written
// from its code, reason and params, and the worker's English sentence is not on the screen.

const IMPORT_REFUSED = new WireError({
  code: 'invalid_command',
  reason: 'import_not_export',
  params: { field: 'conversations.0.messages' },
  message: 'This is not a Parley export file (conversations.0.messages: Invalid input). Nothing was imported.',
  field: 'data.conversations.0.messages',
});

beforeEach(() => setLocale('zh-CN'));
afterEach(async () => {
  await setLocale('en');
  vi.useRealTimers();
});

describe('worker errors in a Chinese UI', () => {
  it('an import the worker refuses is said in Chinese, naming the field, without the English sentence', async () => {
    const send = vi.fn(async () => {
      throw IMPORT_REFUSED;
    }) as unknown as WorkerClient['send'];
    const services = { client: { send, onEvent: () => () => undefined }, state: {}, dispatch: () => undefined } as unknown as AppServices;
    render(() => (
      <AppContext.Provider value={services}>
        <DataSettings />
      </AppContext.Provider>
    ));
    const file = new File([JSON.stringify({ format: 'parley-export', version: 1, conversations: [{}] })], 'x.json');
    fireEvent.change(screen.getByLabelText('导入对话'), { target: { files: [file] } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('这不是 Parley 导出文件（问题出在“conversations.0.messages”）。未导入任何内容。');
    expect(document.body.textContent).not.toContain('This is not a Parley export file');
    expect(document.body.textContent).not.toContain('Nothing was imported');
  });

  it('an import refused for a free-form field names the conversation and the field in words', async () => {
    const refusal = (part: string) => new WireError({ code: 'invalid_command', reason: 'unsafe_data', params: { conversation: 3, message: 2, part }, message: 'The export file cannot be imported (conversation 3, message 2: the answer to elicitation "e1": nested deeper than 32 levels). Nothing was imported.' });
    expect(describeError(refusal('form_content'))).toEqual({ text: '无法导入该导出文件：第 3 个对话第 2 条消息中，对工具表单的回答不是普通 JSON、嵌套过深或者过大。未导入任何内容。' });
    await setLocale('en');
    expect(describeError(refusal('input_schema')).text).toBe('The export file cannot be imported: in message 2 of conversation 3, the input schema of a tool call is not plain JSON, is nested too deeply or is too large. Nothing was imported.');
    // A part this UI does not know (a newer worker) is still a sentence.
    expect(describeError(refusal('something_new')).text).toContain('in message 2 of conversation 3, a field is not plain JSON');
  });

  it('a failed command is a Chinese toast, not the Chinese code sentence plus the English message', async () => {
    vi.useFakeTimers();
    const { toasts, report, dismiss } = createToasts();
    report(new WireError({ code: 'busy', reason: 'run_in_other_tab', message: 'A reply is still being written in another tab. Stop it first, or wait for it to finish.' }));
    report(new WireError({ code: 'invalid_answer', reason: 'answer_single_only', params: { question: '预算' }, message: '"预算" takes a single answer.', field: 'answers[0]' }));
    report(new WireError({ code: 'storage_full', params: { usage: 52_400_000, quota: 60_000_000 }, message: 'The browser has no storage space left for Parley.' }));
    // Each toast shows once its words are here (they load with the first error shown).
    await vi.waitFor(() => expect(toasts()).toHaveLength(3));
    render(() => <ErrorToasts toasts={toasts()} onDismiss={dismiss} />);
    const texts = screen.getAllByRole('alert').map((alert) => alert.textContent ?? '');
    expect(texts).toEqual(['另一个标签页仍在写回复。请先停止它，或等它写完。×', '“预算”只能选一个答案。×', expect.stringContaining('已用 52.4 MB')]);
    expect(texts.join(' ').replaceAll('Parley', '')).not.toMatch(/[A-Za-z]{4,}/); // no English word (the app's name aside)
  });

  it('a provider failure in the chat is worded from its code; the provider’s text is only under Details', () => {
    const providerText = 'The server at http://localhost:11434/v1 answered, but it does not allow requests from this app (CORS).';
    const message: Message = {
      id: 'm1',
      conversationId: 'c1',
      seq: 1,
      role: 'assistant',
      blocks: [{ type: 'error', code: 'cors', message: providerText }],
      status: 'error',
      createdAt: 0,
      updatedAt: 0,
    };
    render(() => <MessageView message={message} client={{} as WorkerClient} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(/^服务器有响应，但不允许来自本应用的请求（CORS）。/);
    const detail = within(alert).getByText(providerText);
    expect(detail.closest('details')).not.toHaveAttribute('open'); // secondary: folded away
    expect(within(alert).getByText('详细信息').tagName).toBe('SUMMARY');

    const conversation = { id: 'c1', title: 'x', runState: 'error', runError: { code: 'auth', message: 'The API key was rejected (HTTP 401).' } } as Conversation;
    expect(statusText(conversation)).toBe('API 密钥被拒绝。请在此配置的设置中检查密钥，并确认它有权使用该模型。');
    expect(statusText({ ...conversation, runError: { code: 'profile_gone', message: 'deleted' } })).toContain('模型配置已被删除');
  });

  it('storage errors and connection tests are worded from their reasons and numbers', () => {
    expect(describeStorageError({ message: 'The browser has no storage space left', reason: 'storage_full', usage: 9_950_000, quota: 10_000_000 })).toEqual({
      text: '浏览器存储空间已满：本浏览器允许 Parley 使用 10 MB，已用 10 MB。请删除不再需要的对话（如需保留，请先在“设置 → 你的数据”中导出）。',
    });
    expect(describeStorageError({ message: 'closed', reason: 'database_closed' })).toEqual({ text: '浏览器关闭了 Parley 的数据库。请重新加载页面。' });

    const connected: ConnectionTestResult = { ok: true, reason: 'connected_model_missing', params: { count: 3, model: 'gpt-x' }, message: 'Connected. 3 models available. The model "gpt-x" is not among them: check its name.', models: ['a', 'b', 'c'] };
    expect(describeTestResult(connected)).toEqual({ text: '连接成功。有 3 个可用模型。模型“gpt-x”不在其中：请检查它的名称。' });
    const refused: ConnectionTestResult = { ok: false, reason: 'cors', message: 'The server at http://x answered, but it does not allow requests from this app (CORS).' };
    expect(describeTestResult(refused)).toEqual({ text: expect.stringMatching(/^服务器有响应/), detail: refused.message });
  });

  it('keeps the worker’s text as detail only when no reason says more (an internal failure)', () => {
    expect(describeError(new WireError({ code: 'internal', message: 'Something went wrong in the worker: boom' }))).toEqual({
      text: '出了点问题。',
      detail: 'Something went wrong in the worker: boom',
    });
    expect(describeError(new WireError({ code: 'app_outdated', message: 'Parley was updated in another tab. Reload this tab to go on.' }))).toEqual({
      text: 'Parley 已在另一个标签页中更新。',
    });
    expect(describeError(new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'No conversation with id "c9" here.' }))).toEqual({
      text: '这个对话已不存在，可能已在另一个标签页中被删除。',
    });
  });

  it('words a code it does not know (an imported or older record) plainly, whatever the string', () => {
    for (const code of ['constructor', 'toString', '__proto__', 'quota_exploded']) {
      expect(describeRunError({ code, message: 'the provider said so' })).toEqual({ text: '出了点问题', detail: 'the provider said so' });
    }
  });

  it('words every Details line Parley writes in Chinese, keeping only the server’s own words', () => {
    // As the worker's httpStatusError builds them (tests/unit/error-details.test.ts checks that side).
    const rejected = { code: 'auth', message: 'The API key was rejected (HTTP 401). …', detail: { key: 'http_auth_model', params: { status: 401, model: 'gpt-x' } } };
    const limited = { code: 'rate_limited', message: 'The provider is rate-limiting requests (HTTP 429). …', detail: { key: 'http_rate_limited_wait', params: { status: 429, seconds: 7, said: 'Slow down, please' } } };
    const refused = { code: 'bad_request', message: 'The provider rejected the request (HTTP 400). It gave no reason.', detail: { key: 'http_rejected_silent', params: { status: 400 } } };
    for (const error of [rejected, limited, refused]) {
      const words = describeRunError(error);
      expect(words.detail).toBeDefined();
      // No sentence of Parley's in English: what is left in Latin letters is a status, a URL, a model name or the server's words.
      expect(words.detail!).not.toMatch(/The |Check |provider|rejected|Try again/);
    }
    expect(describeRunError(rejected).detail).toBe('服务器返回 HTTP 401。请在此配置的设置中检查密钥，并确认它有权使用模型“gpt-x”。');
    expect(describeRunError(limited).detail).toBe('提供方正在限制请求频率（HTTP 429），要求等待 7 秒。 提供方的原话：Slow down, please');
    const cors = { code: 'cors', message: 'The server at … (CORS).', detail: { key: 'cors', params: { baseUrl: 'http://localhost:11434/v1', origin: 'https://parley.example' } } };
    expect(describeRunError(cors).detail).toBe('http://localhost:11434/v1 上的服务器有响应，但不允许来自本应用的请求（CORS）。服务器必须允许来源 https://parley.example。');
    const engine = { code: 'server', message: 'The in-browser model failed: abort(oom)', detail: { key: 'in_browser_failed', params: { said: 'abort(oom)' } } };
    expect(describeRunError(engine)).toEqual({ text: '提供方的服务器出错了。请稍后再试。', detail: '浏览器内模型出错：abort(oom)' });
    // The loop's own stops say everything in their sentence: no English left under Details.
    expect(describeRunError({ code: 'step_limit', message: 'Stopped after 25 model steps in a row. Write a message to go on.' })).toEqual({ text: '模型连续执行的步骤过多，已停止。发送一条消息即可继续。' });
    // A connection test's 401 too.
    const tested = describeTestResult({ ok: false, reason: 'auth', params: { status: 401 }, detail: rejected.detail, message: `The key was rejected. ${rejected.message}` });
    expect(tested.detail).toBe('服务器返回 HTTP 401。请在此配置的设置中检查密钥，并确认它有权使用模型“gpt-x”。');
  });
});

describe('a file name in a refusal from the worker', () => {
  it('shows its bidi controls as code points, in either language', async () => {
    const refused = new WireError({ code: 'invalid_command', reason: 'attachment_unsupported', params: { name: 'report\u202Etxt.pdf' }, message: 'not sent' });
    expect(describeError(refused).text).toBe('无法发送“report⟨U+202E⟩txt.pdf”：它既不是图片也不是文本文件。没有发送任何内容。');
    await setLocale('en');
    expect(describeError(new WireError({ code: 'invalid_command', reason: 'attachment_too_large', params: { name: 'a\u2067b' }, message: 'too large' })).text).toBe('“a⟨U+2067⟩b” is too large to send. Nothing was sent.');
  });
});
