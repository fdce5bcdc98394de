import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { DataSettings } from '../../src/ui/settings/DataSettings';
import { loadStrings, setLocale } from '../../src/ui/i18n/i18n';
import type { WorkerClient } from '../../src/ui/state/channel';
import { WireError, type ConversationExport, type ConversationSizes } from '../../src/schema/protocol';

afterEach(() => vi.unstubAllGlobals());

const noSizes: ConversationSizes = { largest: [], conversations: 0, totalBytes: 0 };

/** A client whose storage.conversationSizes answers `sizes` (each call the next, the last one again); `other` answers the rest. */
function clientWith(other: (command: { type: string }) => unknown, ...sizes: ConversationSizes[]) {
  let call = 0;
  return vi.fn(async (command: { type: string }) => (command.type === 'storage.conversationSizes' ? (sizes[Math.min(call++, sizes.length - 1)] ?? noSizes) : other(command)));
}

function renderWith(send: WorkerClient['send'] | ReturnType<typeof clientWith>, state: Record<string, unknown> = {}) {
  const services = { client: { send, onEvent: () => () => undefined }, state, dispatch: () => undefined } as unknown as AppServices;
  render(() => (
    <AppContext.Provider value={services}>
      <DataSettings />
    </AppContext.Provider>
  ));
}

describe('DataSettings', () => {
  it('exports the conversations as a dated JSON file', async () => {
    const exported: ConversationExport = { format: 'parley-export', version: 1, exportedAt: Date.UTC(2026, 10, 21), conversations: [] };
    const send = clientWith(() => exported);
    const files: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (files.push(blob), 'blob:export'), revokeObjectURL: () => undefined }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWith(send);
    fireEvent.click(screen.getByRole('button', { name: 'Export conversations' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(send).toHaveBeenCalledWith({ type: 'conversation.export' });
    expect(clicked[0]!.download).toBe('parley-export-2026-11-21.json');
    expect(JSON.parse(await files[0]!.text())).toEqual(exported);
  });

  it('says where the conversations are: only here, or here and encrypted on the sync server while sync is on', async () => {
    renderWith(clientWith(() => undefined));
    expect(screen.getByText(/no server has a copy/)).toBeInTheDocument();
    document.body.innerHTML = '';
    renderWith(clientWith(() => undefined), { sync: { state: 'synced', device: { id: 'd', name: 'Laptop' } } });
    expect(screen.queryByText(/no server has a copy/)).toBeNull();
    expect(screen.getByText(/an encrypted copy on your sync server that only your devices can read/)).toBeInTheDocument();
  });

  it('says whether the browser promised to keep the data', async () => {
    vi.stubGlobal('navigator', { ...navigator, storage: { persisted: async () => false, estimate: async () => ({ usage: 2_500_000, quota: 1_000_000_000 }) } });
    renderWith(vi.fn() as unknown as WorkerClient['send']);
    expect(await screen.findByText(/The browser may delete them/)).toHaveTextContent('The browser may delete them when space runs low. Using 2.5 MB of 1,000 MB.');
    expect(screen.queryByRole('status')).toBeNull(); // static facts: not a live region competing with real status updates
  });

  it('puts no space between the two sentences in Chinese', async () => {
    vi.stubGlobal('navigator', { ...navigator, storage: { persisted: async () => false, estimate: async () => ({ usage: 2_500_000, quota: 1_000_000_000 }) } });
    await setLocale('zh-CN');
    await loadStrings('settings');
    try {
      renderWith(vi.fn() as unknown as WorkerClient['send']);
      expect(await screen.findByText(/空间不足时/)).toHaveTextContent(/^空间不足时浏览器可能会删除它们。已使用 2\.5 MB/);
    } finally {
      await setLocale('en');
    }
  });

  it('imports a chosen export file and says how it went', async () => {
    const send = clientWith(() => ({ imported: 2, skipped: 1, repairs: [{ conversationTitle: 'Trip', code: 'waiting_without_question' }] }));
    renderWith(send);
    const input = screen.getByLabelText('Import conversations') as HTMLInputElement;
    const data = { format: 'parley-export', version: 1, exportedAt: 0, conversations: [] };
    const file = new File([JSON.stringify(data)], 'parley.json', { type: 'application/json' });
    fireEvent.change(input, { target: { files: [file] } });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Imported 2 conversations. 1 was already here and was left as it is.');
    // A repaired state is said, by conversation, not silently changed.
    expect(status).toHaveTextContent('“Trip” said it was waiting for an answer but held no question: it is now idle.');
    // The file itself goes to the worker, which reads and parses it: a big file never blocks the page.
    expect(send).toHaveBeenCalledWith({ type: 'conversation.import', file, settings: 'ask' }, { showsErrors: true });
  });

  const OFFERED = [
    { name: 'Work', baseUrl: 'http://127.0.0.1:9/v1' },
    { name: 'MyOpenAI (2)', baseUrl: 'https://attacker.example/v1', nameInFile: 'MyOpenAI' },
  ];

  it('asks before adding a file’s settings, and says what was added', async () => {
    const send = clientWith((command) =>
      (command as { settings?: string }).settings === 'ask' ? { imported: 0, skipped: 0, repairs: [], settingsOffered: { profiles: OFFERED, mcpServers: 1, script: false } } : { imported: 1, skipped: 0, repairs: [], settingsAdded: { profiles: OFFERED, mcpServers: 1, script: false } },
    );
    renderWith(send);
    const file = new File(['{}'], 'parley.json', { type: 'application/json' });
    fireEvent.change(screen.getByLabelText('Import conversations'), { target: { files: [file] } });
    const offer = await screen.findByRole('group', { name: 'Settings in this file' });
    expect(offer).toHaveTextContent('2 model profiles, without their API keys (give each its key again); 1 MCP server, without its token (every tool asks first)');
    // Each profile by name and address; one whose name is taken here says what the file called it.
    const listed = within(offer).getByRole('list', { name: 'Model profiles in this file' });
    expect(within(listed).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Work — http://127.0.0.1:9/v1',
      'MyOpenAI (2) — https://attacker.example/v1 (“MyOpenAI” in the file: a profile here has that name)',
    ]);
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.click(within(offer).getByRole('button', { name: 'Add them too' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Imported 1 conversation. Added: 2 model profiles');
    expect(send).toHaveBeenLastCalledWith({ type: 'conversation.import', file, settings: 'add' }, { showsErrors: true });
  });

  it('says the worker refused a file that is not JSON', async () => {
    renderWith(clientWith(() => Promise.reject(new WireError({ code: 'invalid_command', reason: 'import_not_json', message: 'not JSON' }))));
    fireEvent.change(screen.getByLabelText('Import conversations'), { target: { files: [new File(['not json'], 'x.json')] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('That file is not JSON. Nothing was imported.');
  });

  it('says how many conversations were imported when a later part of the import failed, and nothing false', async () => {
    const repairs = [{ conversationTitle: 'Trip', code: 'waiting_without_question' as const }];
    const failure = new WireError({ code: 'internal', reason: 'save_failed', params: { imported: 300, total: 1000, skipped: 100 }, repairs, message: '300 of 1000 conversations were imported before this failure (100 were already here); the rest were not. Saving failed: disk error' });
    renderWith(clientWith(() => Promise.reject(failure)));
    fireEvent.change(screen.getByLabelText('Import conversations'), { target: { files: [new File(['{}'], 'x.json')] } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('300 of 1000 conversations were imported (100 were already here); the rest were not, because saving failed. Importing the same file again adds the rest.');
    expect(alert).not.toHaveTextContent('nothing was changed');
    // What was repaired in the conversations that were written is said, as after a whole import.
    expect(alert).toHaveTextContent('“Trip” said it was waiting for an answer but held no question: it is now idle.');
  });

  it('says a partly failed import stopped because the storage is full, without "nothing was lost" wording', async () => {
    renderWith(clientWith(() => Promise.reject(new WireError({ code: 'storage_full', params: { imported: 20, total: 30, skipped: 0 }, message: '20 of 30 conversations were imported before this failure (0 were already here); the rest were not. The browser has no storage space left.' }))));
    fireEvent.change(screen.getByLabelText('Import conversations'), { target: { files: [new File(['{}'], 'x.json')] } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('20 of 30 conversations were imported; the rest were not, because the browser storage is full (delete conversations you no longer need first). Importing the same file again adds the rest.');
    expect(alert).not.toHaveTextContent('Nothing was lost');
  });
});

describe('What to delete', () => {
  const big = { conversationId: 'c-big', title: 'Big one', bytes: 2_500_000, messages: 40 };
  const small = { conversationId: 'c-small', title: 'Small one', bytes: 12_000, messages: 2 };

  it('lists the largest conversations with their size, and deletes one after asking', async () => {
    const send = clientWith(() => ({ conversationId: 'c-big' }), { largest: [big, small], conversations: 2, totalBytes: 2_512_000 }, { largest: [small], conversations: 1, totalBytes: 12_000 });
    renderWith(send);
    expect(await screen.findByText('Conversations take about 2.5 MB (2 conversations).')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Largest conversations' });
    expect(list).toHaveTextContent('Big one about 2.5 MB, 40 messages');
    expect(list).toHaveTextContent('Small one about 12 KB, 2 messages');
    fireEvent.click(screen.getByRole('button', { name: 'Delete “Big one” (2.5 MB)' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this conversation?' });
    expect(send).not.toHaveBeenCalledWith({ type: 'conversation.delete', conversationId: 'c-big' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('“Big one” was deleted.');
    expect(send).toHaveBeenCalledWith({ type: 'conversation.delete', conversationId: 'c-big' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete “Big one” (2.5 MB)' })).toBeNull());
    expect(screen.getByText('Conversations take about 12 KB (1 conversation).')).toBeInTheDocument();
  });

  it('deletes nothing when the question is cancelled', async () => {
    const send = clientWith(() => undefined, { largest: [big], conversations: 1, totalBytes: 2_500_000 });
    renderWith(send);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete “Big one” (2.5 MB)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send.mock.calls.some(([command]) => command.type === 'conversation.delete')).toBe(false);
  });

  it("says what the in-browser models take: their files' sizes as the worker sums them", async () => {
    vi.stubGlobal('navigator', { ...navigator, storage: { persisted: async () => true, estimate: async () => ({ usage: 450_000_000, quota: 1_000_000_000, usageDetails: { fileSystem: 400_000_000, indexedDB: 50_000_000 } }) } });
    renderWith(clientWith((command) => (command.type === 'localModel.storedBytes' ? { bytes: 396_000_000 } : undefined), { largest: [small], conversations: 1, totalBytes: 12_000 }));
    expect(await screen.findByText(/In-browser models take 396 MB\./)).toBeInTheDocument();
  });
});
