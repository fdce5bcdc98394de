import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppServices } from '../../src/ui/app-context';
import { DataSettings } from '../../src/ui/components/DataSettings';
import type { WorkerClient } from '../../src/ui/channel';
import type { ConversationExport } from '../../src/schema/protocol';

afterEach(() => vi.unstubAllGlobals());

function renderWith(send: WorkerClient['send']) {
  const services = { client: { send, onEvent: () => () => undefined }, state: {}, dispatch: () => undefined } as unknown as AppServices;
  render(() => (
    <AppContext.Provider value={services}>
      <DataSettings />
    </AppContext.Provider>
  ));
}

describe('DataSettings', () => {
  it('exports the conversations as a dated JSON file', async () => {
    const exported: ConversationExport = { format: 'parley-export', version: 1, exportedAt: Date.UTC(2026, 10, 21), conversations: [] };
    const send = vi.fn(async () => exported) as unknown as WorkerClient['send'];
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

  it('says whether the browser promised to keep the data', async () => {
    vi.stubGlobal('navigator', { ...navigator, storage: { persisted: async () => false, estimate: async () => ({ usage: 2_500_000, quota: 1_000_000_000 }) } });
    renderWith(vi.fn() as unknown as WorkerClient['send']);
    expect(await screen.findByText(/The browser may delete them/)).toHaveTextContent('The browser may delete them when space runs low. Using 2.5 MB of 1,000 MB.');
    expect(screen.queryByRole('status')).toBeNull(); // static facts: not a live region competing with real status updates
  });

  it('imports a chosen export file and says how it went', async () => {
    const send = vi.fn(async () => ({ imported: 2, skipped: 1, repairs: [{ conversationTitle: 'Trip', code: 'waiting_without_question' }] })) as unknown as WorkerClient['send'];
    renderWith(send);
    const input = screen.getByLabelText('Import conversations') as HTMLInputElement;
    const data = { format: 'parley-export', version: 1, exportedAt: 0, conversations: [] };
    fireEvent.change(input, { target: { files: [new File([JSON.stringify(data)], 'parley.json', { type: 'application/json' })] } });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Imported 2 conversations. 1 was already here and was left as it is.');
    // A repaired state is said, by conversation, not silently changed.
    expect(status).toHaveTextContent('“Trip” said it was waiting for an answer but held no question: it is now idle.');
    expect(send).toHaveBeenCalledWith({ type: 'conversation.import', data });
  });

  it('refuses a file that is not JSON without asking the worker', async () => {
    const send = vi.fn() as unknown as WorkerClient['send'];
    renderWith(send);
    fireEvent.change(screen.getByLabelText('Import conversations'), { target: { files: [new File(['not json'], 'x.json')] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('That file is not JSON. Nothing was imported.');
    expect(send).not.toHaveBeenCalled();
  });
});
