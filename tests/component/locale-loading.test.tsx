import { afterEach, describe, expect, it, vi } from 'vitest';
import { locale, setLocale, t } from '../../src/ui/i18n/i18n';

afterEach(async () => {
  await setLocale('en');
});

// The Chinese dictionary is a chunk of its own: the UI switches only once it is loaded, never to keys.
describe('switching the UI language', () => {
  it('speaks Chinese once its dictionary has loaded', async () => {
    expect(t('nav.settings')).toBe('Settings');
    await setLocale('zh-CN');
    expect(locale()).toBe('zh-CN');
    expect(t('nav.settings')).toBe('设置');
  });

  it('keeps the language chosen last when an earlier choice is still loading', async () => {
    const chinese = setLocale('zh-CN');
    const english = setLocale('en');
    await Promise.all([chinese, english]);
    expect(locale()).toBe('en');
    expect(t('nav.settings')).toBe('Settings');
  });
});

// Settings' strings are chunks of their own, loaded with Settings (App.tsx): the page loads only the first screen's.
describe("a screen's strings", () => {
  /** i18n as a fresh page has it (this file's setup loaded Settings' strings into the shared one). */
  async function freshPage() {
    vi.resetModules();
    return import('../../src/ui/i18n/i18n');
  }

  it('are not loaded with the page, and are once the screen asks for them', async () => {
    const { loadStrings, t } = await freshPage();
    expect(t('nav.settings')).toBe('Settings');
    expect(t('data.export')).toBe('data.export');
    expect(t('settings.acceptsImages')).toBe('settings.acceptsImages');
    // A connection test's words: only Settings' profile form shows them.
    expect(t('test.scripted')).toBe('test.scripted');
    // Why an import file was refused: only Settings' Data section imports, and it says why in place.
    expect(t('error.importNotExportFile')).toBe('error.importNotExportFile');
    await loadStrings('settings');
    expect(t('error.importNotExportFile')).toBe('This is not a Parley export file. Nothing was imported.');
    expect(t('data.export')).toBe('Export conversations');
    expect(t('settings.acceptsImages')).toBe('Accepts images');
    expect(t('test.scripted')).toBe('The scripted model runs in this app and needs no connection.');
  });

  it('come in the UI language, and a language switched to later brings them before it shows', async () => {
    const chinese = await freshPage();
    await chinese.setLocale('zh-CN');
    await chinese.loadStrings('settings');
    expect(chinese.t('data.export')).toBe('导出对话');

    const switched = await freshPage();
    await switched.loadStrings('settings');
    const switching = switched.setLocale('zh-CN');
    expect(switched.t('data.export')).toBe('Export conversations');
    await switching;
    expect({ page: switched.t('nav.settings'), settings: switched.t('mcp.connect') }).toEqual({ page: '设置', settings: '连接' });
  });

  it("of a view that loads on use come with its code, in the UI language (withStrings)", async () => {
    const { setLocale, t, withStrings } = await freshPage();
    expect(t('tool.allow')).toBe('tool.allow');
    // A call's card, the header's forms, the shortcuts' dialog and a search's results: none is on a first conversation.
    const onUse = ['tool.never', 'tool.result', 'chat.titleField', 'chat.instructionsSave', 'keys.stop', 'conversationSearch.none'] as const;
    expect(onUse.map((key) => t(key))).toEqual([...onUse]);
    expect({ queued: t('tool.status.pending'), search: t('conversationSearch.label'), instructions: t('chat.instructionsButton') }).toEqual({
      queued: 'Queued',
      search: 'Search conversations',
      instructions: 'Conversation instructions',
    });
    const module = await withStrings('views', async () => 'the view');
    expect({ module, allow: t('tool.allow'), find: t('search.label'), chip: t('attach.remove') }).toEqual({
      module: 'the view',
      allow: 'Allow',
      find: 'Find in conversation',
      chip: 'Remove attachment',
    });
    expect(onUse.map((key) => t(key))).toEqual(['You set this tool to Never.', 'Result', 'Conversation title', 'Save instructions', 'Stop the reply being written', 'No conversations match']);
    await setLocale('zh-CN');
    expect(t('attach.remove')).toBe('移除附件');
  });

  it("of an error come with the first error shown, what stopped a run among them; a waiting run's notices come with the page", async () => {
    const { loadStrings, setLocale, t } = await freshPage();
    expect(t('runError.network')).toBe('runError.network');
    expect(t('runError.images_not_accepted')).toBe('runError.images_not_accepted');
    expect(t('notice.retryingSoon')).toBe('Retrying soon…');
    expect(t('notice.serverUnreachable')).toBe('The model server cannot be reached; Parley tries again by itself.');
    // A file's refusal is an error's; the composer's button and a file's size come with the page.
    expect(t('error.reason.attachment_too_large', { name: 'a.png' })).toBe('error.reason.attachment_too_large');
    expect(t('attach.button')).toBe('Attach files');
    expect(t('errorDetail.offline')).toBe('errorDetail.offline');
    expect(t('error.reason.run_in_progress')).toBe('error.reason.run_in_progress');
    expect(t('error.busy')).toBe('error.busy');
    await loadStrings('errors');
    expect(t('errorDetail.offline')).toBe('You are offline, so the model provider cannot be reached. Reconnect and try again.');
    expect(t('error.details')).toBe('Details');
    expect(t('runError.network')).toBe('The model provider cannot be reached. Check the base URL, that the server is running, and your connection.');
    expect(t('error.reason.attachment_too_large', { name: 'a.png' })).toBe('“a.png” is too large to send. Nothing was sent.');
    await setLocale('zh-CN');
    expect({ reason: t('error.reason.run_in_progress'), run: t('runError.server') }).toEqual({ reason: '回复仍在写入中。请先停止它，或等它写完。', run: '提供方的服务器出错了。请稍后再试。' });
  });

  it("of sync come with what shows them: a synced conversation's views with their code, a refusal with an error's words", async () => {
    const { loadStrings, setLocale, t } = await freshPage();
    // A proposal's note and a device without a name are worded with the conversation.
    expect(t('sync.proposedMessage', { device: 'Laptop' })).toBe('Sent to Laptop');
    expect(t('sync.anotherDevice')).toBe('another device');
    for (const key of ['sync.runsOn', 'sync.keyNeeded', 'sync.otherTitles', 'sync.decidedOn', 'sync.reason.unauthorized', 'sync.refused.replayed', 'error.reason.runs_elsewhere'] as const) expect(t(key)).toBe(key);
    await loadStrings('views');
    expect({ runs: t('sync.runsOn', { device: 'Laptop' }), key: t('sync.useKey'), titles: t('sync.otherTitles') }).toEqual({ runs: 'Runs on Laptop', key: 'Use this key', titles: 'Also named:' });
    expect(t('sync.reason.unauthorized')).toBe('sync.reason.unauthorized');
    await loadStrings('errors');
    expect(t('sync.reason.unauthorized')).toBe('The server refused the password. Check the username and password.');
    expect(t('error.reason.sync_off')).toBe('Sync is off. Turn it on in Settings → Sync first.');
    await setLocale('zh-CN');
    expect({ runs: t('sync.continueHere'), refused: t('sync.reason.unauthorized') }).toEqual({ runs: '在此设备上继续', refused: '服务器拒绝了该密码。请检查用户名和密码。' });
  });
});
