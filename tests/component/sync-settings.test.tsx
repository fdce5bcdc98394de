import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { SyncSettings } from '../../src/ui/sync/SyncSettings';
import { WireError } from '../../src/schema/protocol';
import type { SyncStatus } from '../../src/schema/sync/sync';
import { setLocale } from '../../src/ui/i18n/i18n';
import { createUiStore } from '../../src/ui/state/store';

const phone = { id: 'phone-id', name: 'Phone' };
const off: SyncStatus = { state: 'off', device: phone };

afterEach(() => setLocale('en'));

/** Settings → Sync over a real store, with a worker that answers each command through `reply`. */
function renderSync(reply: (command: Record<string, unknown>) => unknown, regionName = 'Sync') {
  const send = vi.fn(async (command: Record<string, unknown>) => reply(command));
  const { state, dispatch } = createUiStore();
  const services = { client: { send, onEvent: () => () => undefined }, state, dispatch } as unknown as AppServices;
  render(() => (
    <AppContext.Provider value={services}>
      <SyncSettings />
    </AppContext.Provider>
  ));
  const region = screen.getByRole('region', { name: regionName });
  return { send, dispatch, region, status: () => within(region).getByRole('status') };
}

function fillIn(region: HTMLElement) {
  fireEvent.input(within(region).getByRole('textbox', { name: 'Sync server URL' }), { target: { value: ' https://couch.example.com/parley ' } });
  fireEvent.input(within(region).getByRole('textbox', { name: 'Username' }), { target: { value: 'me' } });
  fireEvent.input(within(region).getByLabelText('Password'), { target: { value: 'secret' } });
  fireEvent.input(within(region).getByLabelText('Passphrase'), { target: { value: 'correct horse' } });
}

describe('Settings → Sync', () => {
  it('reads the status on mount; the fields are named, the secrets are password fields, and the passphrase says what it is', async () => {
    const { send, region, status } = renderSync(() => off);
    await waitFor(() => expect(status()).toHaveTextContent('Sync is off'));
    expect(send).toHaveBeenCalledWith({ type: 'sync.status' }, { showsErrors: true });
    expect(within(region).getByLabelText('Password')).toHaveAttribute('type', 'password');
    const passphrase = within(region).getByLabelText('Passphrase');
    expect(passphrase).toHaveAttribute('type', 'password');
    expect(passphrase).toHaveAccessibleDescription(/encrypted with it before it leaves this device.*cannot be recovered.*same on every device/);
    expect(within(region).getByRole('textbox', { name: "This device's name" })).toHaveValue('Phone');
    expect(within(region).queryByRole('button', { name: 'Turn off sync' })).toBeNull();
  });

  it('"Turn on sync" sends what was typed, says it is starting while it works, then follows the status events', async () => {
    let finish: (status: SyncStatus) => void = () => undefined;
    const { send, dispatch, region, status } = renderSync((command) => (command.type === 'sync.enable' ? new Promise((resolve) => (finish = resolve)) : off));
    await waitFor(() => expect(status()).toHaveTextContent('Sync is off'));
    fillIn(region);
    fireEvent.click(within(region).getByRole('button', { name: 'Turn on sync' }));
    await waitFor(() => expect(status()).toHaveTextContent('Starting…'));
    expect(within(region).getByRole('button', { name: 'Turn on sync' })).toBeDisabled();
    expect(send).toHaveBeenCalledWith({ type: 'sync.enable', url: 'https://couch.example.com/parley', username: 'me', password: 'secret', passphrase: 'correct horse' }, { showsErrors: true });

    finish({ state: 'syncing', device: phone, url: 'https://couch.example.com/parley', username: 'me', progress: { done: 120, total: 3400 } });
    await waitFor(() => expect(status()).toHaveTextContent('Syncing 120 of 3,400'));
    expect(within(region).getByText('Syncing with https://couch.example.com/parley as me.')).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Turn on sync' })).toBeNull();
    expect(within(region).getByRole('button', { name: 'Turn off sync' })).toHaveAccessibleDescription('Turning sync off keeps every conversation on this device.');

    dispatch({ type: 'sync-status', status: { state: 'offline', device: phone, url: 'https://couch.example.com/parley' } });
    await waitFor(() => expect(status()).toHaveTextContent('Offline — changes wait on this device'));
    dispatch({ type: 'sync-status', status: { state: 'error', reason: 'server_full', device: phone } });
    await waitFor(() => expect(status()).toHaveTextContent('The sync server is full'));
  });

  it('a refused "Turn on sync" says why in the status and keeps everything typed', async () => {
    const { region, status } = renderSync((command) => {
      if (command.type === 'sync.enable') throw new WireError({ code: 'invalid_command', reason: 'sync_wrong_passphrase', message: 'wrong passphrase' });
      return off;
    });
    await waitFor(() => expect(status()).toHaveTextContent('Sync is off'));
    fillIn(region);
    fireEvent.click(within(region).getByRole('button', { name: 'Turn on sync' }));
    await waitFor(() => expect(status()).toHaveTextContent('Wrong passphrase'));
    expect(status()).toHaveAttribute('data-sync-state', 'error');
    expect(within(region).getByRole('textbox', { name: 'Sync server URL' })).toHaveValue('https://couch.example.com/parley');
    expect(within(region).getByRole('textbox', { name: 'Username' })).toHaveValue('me');
    expect(within(region).getByLabelText('Password')).toHaveValue('secret');
    expect(within(region).getByLabelText('Passphrase')).toHaveValue('correct horse');
    expect(within(region).getByRole('button', { name: 'Turn on sync' })).toBeEnabled();
  });

  it('data without its key document is never given a new key silently: "Make a new key and turn on sync" asks for one', async () => {
    const on: SyncStatus = { state: 'syncing', device: phone, url: 'https://couch.example.com/parley', username: 'me' };
    const { send, region, status } = renderSync((command) => {
      if (command.type === 'sync.enable' && !command.newKey) throw new WireError({ code: 'invalid_state', reason: 'sync_key_missing', message: 'key missing' });
      return command.type === 'sync.enable' ? on : off;
    });
    fillIn(region);
    expect(within(region).queryByRole('button', { name: 'Make a new key and turn on sync' })).toBeNull();
    fireEvent.click(within(region).getByRole('button', { name: 'Turn on sync' }));
    await waitFor(() => expect(status()).toHaveTextContent('This database holds data, but its key document is gone'));
    fireEvent.click(within(region).getByRole('button', { name: 'Make a new key and turn on sync' }));
    await waitFor(() => expect(status()).toHaveTextContent('Syncing…'));
    expect(send).toHaveBeenCalledWith({ type: 'sync.enable', url: 'https://couch.example.com/parley', username: 'me', password: 'secret', passphrase: 'correct horse', newKey: true }, { showsErrors: true });
  });

  it('a key document gone from the server is said, and "Put this device’s key back" puts it back; a replaced one is said', async () => {
    const on: SyncStatus = { state: 'synced', device: phone, url: 'https://couch.example.com/parley', username: 'me', lastSyncedAt: Date.now(), keyDocument: 'missing' };
    const { send, dispatch, region } = renderSync((command) => (command.type === 'sync.restoreKey' ? { ...on, keyDocument: undefined } : on));
    await waitFor(() => expect(within(region).getByText(/The key document is gone from the sync server/)).toBeInTheDocument());
    fireEvent.click(within(region).getByRole('button', { name: 'Put this device’s key back' }));
    await waitFor(() => expect(within(region).queryByText(/The key document is gone/)).toBeNull());
    expect(send).toHaveBeenCalledWith({ type: 'sync.restoreKey' });
    dispatch({ type: 'sync-status', status: { ...on, keyDocument: 'replaced' } });
    await waitFor(() => expect(within(region).getByText(/is not the one this device joined with/)).toBeInTheDocument());
    expect(within(region).queryByRole('button', { name: 'Put this device’s key back' })).toBeNull();
  });

  it('a server set up again under another key: the status says so, a wrong passphrase is said, the right one joins', async () => {
    const replaced: SyncStatus = { state: 'error', reason: 'key_replaced', device: phone, url: 'https://couch.example.com/parley', username: 'me', keyDocument: 'replaced' };
    const { send, region, status } = renderSync((command) => {
      if (command.type !== 'sync.rejoin') return replaced;
      if (command.passphrase !== 'correct horse') throw new WireError({ code: 'invalid_state', reason: 'sync_wrong_passphrase', message: 'Wrong passphrase' });
      return { ...replaced, state: 'syncing', reason: undefined, keyDocument: undefined };
    });
    await waitFor(() => expect(status()).toHaveTextContent('Not syncing: the sync server now has another key.'));
    const passphrase = within(region).getByLabelText('Passphrase for the new key');
    expect(passphrase).toHaveAttribute('type', 'password');
    fireEvent.input(passphrase, { target: { value: 'not it' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Join the new key' }));
    await waitFor(() => expect(within(region).getByRole('alert')).toHaveTextContent('Wrong passphrase'));
    expect(send).toHaveBeenCalledWith({ type: 'sync.rejoin', passphrase: 'not it' }, { showsErrors: true });
    fireEvent.input(passphrase, { target: { value: 'correct horse' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Join the new key' }));
    await waitFor(() => expect(status()).toHaveTextContent('Syncing…'));
    expect(within(region).queryByRole('button', { name: 'Join the new key' })).toBeNull();
  });

  it('words a server under another key in Chinese', async () => {
    await setLocale('zh-CN');
    const replaced: SyncStatus = { state: 'error', reason: 'key_replaced', device: phone, url: 'https://couch.example.com/parley', username: 'me', keyDocument: 'replaced' };
    const { status: chinese, region: chineseRegion } = renderSync(() => replaced, '同步');
    await waitFor(() => expect(chinese()).toHaveTextContent('未在同步：同步服务器现在使用另一个密钥。'));
    expect(within(chineseRegion).getByRole('button', { name: '加入新密钥' })).toBeInTheDocument();
  });

  it('a server this device set up again after it lost its data is said', async () => {
    const { region } = renderSync(() => ({ state: 'synced', device: phone, url: 'https://couch.example.com/parley', username: 'me', lastSyncedAt: Date.now(), keyDocument: 'restored' }));
    await waitFor(() => expect(within(region).getByText(/^The sync server had lost this database\./)).toBeInTheDocument());
    expect(within(region).queryByRole('button', { name: 'Join the new key' })).toBeNull();
  });

  it('words each refusal and each error reason, in Chinese too', async () => {
    const refusals: Array<[string, string]> = [
      ['sync_unauthorized', 'The server refused the password'],
      ['sync_unreachable', 'Can’t reach the sync server'],
      ['sync_not_a_database', 'not a CouchDB database'],
    ];
    for (const [reason, words] of refusals) {
      const { region, status } = renderSync((command) => {
        if (command.type === 'sync.enable') throw new WireError({ code: 'invalid_command', reason: reason as 'sync_unauthorized', message: reason, params: { said: 'You are not a server admin.' } });
        return off;
      });
      fillIn(region);
      fireEvent.click(within(region).getByRole('button', { name: 'Turn on sync' }));
      await waitFor(() => expect(status()).toHaveTextContent(words));
      // The server's own words are kept, folded under Details.
      expect(within(region).getByText('The server said: You are not a server admin.')).toBeInTheDocument();
      document.body.innerHTML = '';
    }
    await setLocale('zh-CN');
    const { status } = renderSync(() => ({ state: 'error', reason: 'no_crypto', device: phone }), '同步');
    await waitFor(() => expect(status()).toHaveTextContent('此浏览器无法加密'));
  });

  it('an initial sync says how far it has got in Chinese too, numbers in the locale', async () => {
    await setLocale('zh-CN');
    const syncing: SyncStatus = { state: 'syncing', device: phone, url: 'https://couch.example.com/parley', username: 'me', progress: { done: 120, total: 3400 } };
    const { dispatch, status } = renderSync(() => syncing, '同步');
    await waitFor(() => expect(status()).toHaveTextContent('正在同步：120 / 3,400'));
    dispatch({ type: 'sync-status', status: { ...syncing, progress: { done: 3400, total: 3400 } } });
    await waitFor(() => expect(status()).toHaveTextContent('正在同步：3,400 / 3,400'));
  });

  it('says "Synced" only when nothing from the server was refused: the warning, its details and "Clear the warning", in Chinese too', async () => {
    const refused = { unreadable: 2, replayed: 1, misplaced: 0, lastAt: Date.now() };
    const on: SyncStatus = { state: 'synced', device: phone, url: 'https://couch.example.com/parley', username: 'me', lastSyncedAt: Date.now(), refused };
    const { send, dispatch, region, status } = renderSync((command) => (command.type === 'sync.clearRefusals' ? { ...on, refused: undefined } : on));
    await waitFor(() => expect(status()).toHaveTextContent('3 documents on the server could not be used — they may have been changed by someone else.'));
    expect(status()).not.toHaveTextContent(/Synced/);
    fireEvent.click(within(region).getByText('Details of what was refused'));
    expect(within(region).getByText('Could not be opened (another key, or changed bytes): 2')).toBeInTheDocument();
    expect(within(region).getByText('An older copy written back over a newer one: 1')).toBeInTheDocument();
    expect(within(region).queryByText(/A record put under/)).toBeNull();
    // While syncing, the status says so and the warning stands beside it; one document is said in the singular.
    dispatch({ type: 'sync-status', status: { ...on, state: 'syncing', refused: { ...refused, unreadable: 0, replayed: 1 } } });
    await waitFor(() => expect(status()).toHaveTextContent('Syncing…'));
    expect(within(region).getByText('1 document on the server could not be used — it may have been changed by someone else.')).toBeInTheDocument();
    dispatch({ type: 'sync-status', status: on });
    fireEvent.click(within(region).getByRole('button', { name: 'Clear the warning' }));
    await waitFor(() => expect(status()).toHaveTextContent(/^Synced, last synced /));
    expect(send).toHaveBeenCalledWith({ type: 'sync.clearRefusals' });
    expect(within(region).queryByRole('button', { name: 'Clear the warning' })).toBeNull();
  });

  it('words the warning in Chinese', async () => {
    await setLocale('zh-CN');
    const on: SyncStatus = { state: 'synced', device: phone, url: 'https://couch.example.com/parley', lastSyncedAt: Date.now(), refused: { unreadable: 0, replayed: 0, misplaced: 4, lastAt: Date.now() } };
    const { region, status } = renderSync(() => on, '同步');
    await waitFor(() => expect(status()).toHaveTextContent('服务器上有 4 份文档无法使用——它们可能被他人改动过。'));
    expect(within(region).getByRole('button', { name: '清除警告' })).toBeInTheDocument();
  });

  it('"Turn off sync" asks first whether to keep the copy; Cancel keeps sync on', async () => {
    const on: SyncStatus = { state: 'synced', device: phone, url: 'https://couch.example.com/parley', username: 'me', lastSyncedAt: Date.now() };
    const { send, region, status } = renderSync(() => on);
    await waitFor(() => expect(status()).toHaveTextContent(/^Synced, last synced /));
    fireEvent.click(within(region).getByRole('button', { name: 'Turn off sync' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn off sync?' });
    expect(dialog).toHaveAccessibleDescription(/Every conversation stays on this device either way.*keep it.*delete it to free its space/);
    expect(within(dialog).getByRole('button', { name: 'Turn off and keep the copy' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Turn off and delete the copy' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send.mock.calls.some(([command]) => command.type === 'sync.disable')).toBe(false);
  });

  it('"Turn off and keep the copy" says a copy is kept; "Delete the kept copy" deletes it while off', async () => {
    const on: SyncStatus = { state: 'synced', device: phone, url: 'https://couch.example.com/parley', username: 'me', lastSyncedAt: Date.now() };
    const { send, region, status } = renderSync((command) => (command.type === 'sync.disable' ? (command.keepMirror ? { ...off, mirrorKept: true } : off) : on));
    await waitFor(() => expect(status()).toHaveTextContent(/^Synced/));
    fireEvent.click(within(region).getByRole('button', { name: 'Turn off sync' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Turn off and keep the copy' }));
    await waitFor(() => expect(status()).toHaveTextContent('Sync is off'));
    expect(send).toHaveBeenCalledWith({ type: 'sync.disable', keepMirror: true }, { showsErrors: true });
    const deleteKept = within(region).getByRole('button', { name: 'Delete the kept copy' });
    expect(deleteKept).toHaveAccessibleDescription(/^This device keeps an encrypted copy of what it synced/);
    fireEvent.click(deleteKept);
    await waitFor(() => expect(within(region).queryByRole('button', { name: 'Delete the kept copy' })).toBeNull());
    expect(send).toHaveBeenLastCalledWith({ type: 'sync.disable', keepMirror: false }, { showsErrors: true });
  });

  it('"Turn off and delete the copy" sends sync.disable and shows the form again', async () => {
    const on: SyncStatus = { state: 'synced', device: phone, url: 'https://couch.example.com/parley', username: 'me', lastSyncedAt: Date.now() };
    const { send, region, status } = renderSync((command) => (command.type === 'sync.disable' ? off : on));
    await waitFor(() => expect(status()).toHaveTextContent(/^Synced, last synced /));
    fireEvent.click(within(region).getByRole('button', { name: 'Turn off sync' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Turn off and delete the copy' }));
    await waitFor(() => expect(status()).toHaveTextContent('Sync is off'));
    expect(send).toHaveBeenCalledWith({ type: 'sync.disable', keepMirror: false }, { showsErrors: true });
    // What the worker said of the server is offered again, so turning it back on is one passphrase away.
    expect(within(region).getByRole('textbox', { name: 'Sync server URL' })).toHaveValue('https://couch.example.com/parley');
    expect(within(region).getByRole('button', { name: 'Turn on sync' })).toBeInTheDocument();
  });

  it('a name typed in "This device\'s name" is the one used when "Turn on sync" is pressed', async () => {
    let named = phone;
    const { send, region, status } = renderSync((command) => {
      if (command.type === 'sync.setDeviceName') named = { ...phone, name: String(command.name) };
      return command.type === 'sync.enable' ? { state: 'syncing', device: named, url: 'https://couch.example.com/parley' } : { ...off, device: named };
    });
    await waitFor(() => expect(within(region).getByRole('textbox', { name: "This device's name" })).toHaveValue('Phone'));
    fireEvent.input(within(region).getByRole('textbox', { name: "This device's name" }), { target: { value: 'Laptop at work' } });
    fillIn(region);
    fireEvent.click(within(region).getByRole('button', { name: 'Turn on sync' }));
    await waitFor(() => expect(status()).toHaveTextContent('Syncing…'));
    const types = (send.mock.calls as unknown as Array<[{ type: string; name?: string }]>).map(([command]) => command.type);
    expect(types.indexOf('sync.setDeviceName')).toBeLessThan(types.indexOf('sync.enable'));
    expect(send).toHaveBeenCalledWith({ type: 'sync.setDeviceName', name: 'Laptop at work' }, { showsErrors: true });
  });

  it('names this device with sync off too, and a name being typed is not overwritten by a status', async () => {
    const { send, dispatch, region } = renderSync((command) => (command.type === 'sync.setDeviceName' ? { ...off, device: { ...phone, name: 'Work phone' } } : off));
    const name = within(region).getByRole('textbox', { name: "This device's name" });
    await waitFor(() => expect(name).toHaveValue('Phone'));
    fireEvent.input(name, { target: { value: '  Work phone ' } });
    dispatch({ type: 'sync-status', status: { ...off, lastSyncedAt: 1 } });
    expect(name).toHaveValue('  Work phone ');
    fireEvent.click(within(region).getByRole('button', { name: 'Use this name' }));
    await waitFor(() => expect(within(region).getByText('This device is called “Work phone”.')).toBeInTheDocument());
    expect(send).toHaveBeenCalledWith({ type: 'sync.setDeviceName', name: 'Work phone' }, { showsErrors: true });
    expect(name).toHaveValue('Work phone');
  });
});
