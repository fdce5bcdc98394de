import { createSignal, For, onMount, Show } from 'solid-js';
import { useApp } from '../state/app-context';
import type { ImportRepair, SettingsOffer } from '../../schema/protocol';
import { settle } from '../common/error-report';
import { describeError } from '../common/error-words';
import { plural, sentences, t, type MessageKey } from '../i18n/i18n';
import { WireError } from '../../schema/wire-error';
import { ErrorDetail } from '../common/ErrorDetail';
import { StorageUsage } from './StorageUsage';

const REPAIR_KEYS: Record<ImportRepair['code'], MessageKey> = {
  waiting_without_question: 'data.repair.waiting_without_question',
  question_not_waiting: 'data.repair.question_not_waiting',
  extra_pending_question: 'data.repair.extra_pending_question',
  tool_call_not_run: 'data.repair.tool_call_not_run',
};
/** The repairs that count something, in the form for a count of one. */
const REPAIR_ONE_KEYS: Partial<Record<ImportRepair['code'], MessageKey>> = { tool_call_not_run: 'data.repair.tool_call_not_runOne' };

interface StorageFacts {
  persisted: boolean;
  usedBytes?: number;
  quotaBytes?: number;
}

/**
 * "Your data": conversations live only in this browser, so say whether the browser promised to keep them, how much
 * space they use, and offer an export (a JSON file without API keys) to keep a copy elsewhere, and its import.
 */
export function DataSettings() {
  const app = useApp();
  const [facts, setFacts] = createSignal<StorageFacts>();
  const [exporting, setExporting] = createSignal(false);
  const [importResult, setImportResult] = createSignal<{ ok: boolean; text: string; detail?: string; repairs?: string[] }>();
  const [offer, setOffer] = createSignal<{ file: Blob; offered: SettingsOffer }>();

  onMount(async () => {
    const storage = navigator.storage;
    if (!storage?.persisted) return;
    const [persisted, estimate] = await Promise.all([storage.persisted().catch(() => false), storage.estimate?.().catch(() => undefined)]);
    setFacts({ persisted, usedBytes: estimate?.usage, quotaBytes: estimate?.quota });
  });

  async function exportConversations() {
    setExporting(true);
    try {
      const exported = await settle(app.client.send({ type: 'conversation.export' }));
      if (!exported) return;
      const file = new Blob([JSON.stringify(exported, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(file);
      const link = document.createElement('a');
      link.href = url;
      link.download = `parley-export-${new Date(exported.exportedAt).toISOString().slice(0, 10)}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } finally {
      setExporting(false);
    }
  }

  async function importConversations(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = ''; // the same file may be chosen again
    if (!file) return;
    setImportResult(undefined);
    await importFile(file, 'ask');
  }

  /** Imports `file`; with `ask`, a file that also holds settings not here yet is only described, and the user chooses. */
  async function importFile(file: Blob, settings: 'ask' | 'add' | 'skip') {
    setOffer(undefined);
    try {
      // The worker reads and parses the file: a file of thousands of conversations never blocks the page.
      const result = await app.client.send({ type: 'conversation.import', file, settings }, { showsErrors: true });
      if (result.settingsOffered) {
        setOffer({ file, offered: result.settingsOffered });
        return;
      }
      const { imported, skipped, repairs } = result;
      const parts = [t(imported === 1 ? 'data.importedOne' : 'data.importedMany', { count: imported })];
      if (skipped > 0) parts.push(t(skipped === 1 ? 'data.skippedOne' : 'data.skippedMany', { count: skipped }));
      if (result.settingsAdded) parts.push(settingsWords(result.settingsAdded, 'data.settingsAdded'));
      setImportResult({ ok: true, text: parts.join(' '), ...repairWords(repairs) });
    } catch (error) {
      setImportResult({ ok: false, ...(partialImportWords(error) ?? describeError(error)) });
    }
  }

  return (
    <div class="settings-section">
      <h2>{t('data.heading')}</h2>
      {/* With sync on, the sync server holds an encrypted copy: "no server has a copy" would not be true. */}
      <p>{t(app.state.sync && app.state.sync.state !== 'off' ? 'data.localSynced' : 'data.local')}</p>
      <Show when={facts()}>
        {(known) => (
          <p class="storage-facts">
            {sentences(
              known().persisted ? t('data.persisted') : t('data.notPersisted'),
              known().usedBytes !== undefined && known().quotaBytes ? t('data.usage', { used: megabytes(known().usedBytes!), quota: megabytes(known().quotaBytes!) }) : '',
            )}
          </p>
        )}
      </Show>
      <StorageUsage />
      <div class="data-actions">
        <button type="button" class="button" disabled={exporting()} onClick={() => void exportConversations()}>
          {t('data.export')}
        </button>
        <label class="button file-button">
          {t('data.import')}
          <input type="file" accept="application/json,.json" class="visually-hidden" onChange={(event) => void importConversations(event.currentTarget)} />
        </label>
      </div>
      <Show when={offer()}>
        {(pending) => (
          <div class="import-offer" role="group" aria-label={t('data.settingsOfferTitle')}>
            <p>{settingsWords(pending().offered, 'data.settingsOffer')}</p>
            <Show when={pending().offered.profiles.length > 0}>
              <ul class="import-offer__profiles" aria-label={t('data.settingsProfilesList')}>
                <For each={pending().offered.profiles}>
                  {(profile) => (
                    <li>
                      <bdi>{profile.name}</bdi>
                      {' — '}
                      <Show when={profile.baseUrl} fallback={t('data.profileDefaultAddress')}>
                        {(baseUrl) => <bdi class="import-offer__url">{baseUrl()}</bdi>}
                      </Show>
                      <Show when={profile.nameInFile}>{(nameInFile) => <span class="import-offer__renamed"> {t('data.profileRenamed', { name: nameInFile() })}</span>}</Show>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
            <div class="form-row">
              <button type="button" class="button primary" onClick={() => void importFile(pending().file, 'add')}>
                {t('data.settingsAdd')}
              </button>
              <button type="button" class="button" onClick={() => void importFile(pending().file, 'skip')}>
                {t('data.settingsSkip')}
              </button>
            </div>
          </div>
        )}
      </Show>
      <Show when={importResult()}>
        {(result) => (
          <div role={result().ok ? 'status' : 'alert'} class={result().ok ? 'import-result' : 'import-result error-text'}>
            <p>{result().text}</p>
            <ErrorDetail detail={result().detail} />
            <Show when={result().repairs}>
              {(repairs) => (
                <>
                  <p>{t('data.repairedIntro')}</p>
                  <ul class="import-repairs">
                    <For each={repairs()}>{(repair) => <li>{repair}</li>}</For>
                  </ul>
                </>
              )}
            </Show>
          </div>
        )}
      </Show>
    </div>
  );
}

/** "2 model profiles (without their keys), 1 MCP server (…) and the script", after `intro`. */
function settingsWords(offer: SettingsOffer, intro: MessageKey): string {
  const parts: string[] = [];
  const profiles = offer.profiles.length;
  if (profiles > 0) parts.push(t(plural(profiles, 'data.settingsProfilesOne', 'data.settingsProfiles'), { count: profiles }));
  if (offer.mcpServers > 0) parts.push(t(plural(offer.mcpServers, 'data.settingsServersOne', 'data.settingsServers'), { count: offer.mcpServers }));
  if (offer.script) parts.push(t('data.settingsScript'));
  return t(intro, { what: parts.join('; ') });
}

function repairWords(repairs: readonly ImportRepair[]): { repairs?: string[] } {
  const repaired = repairs.map((repair) => {
    const count = repair.count ?? 1;
    const one = REPAIR_ONE_KEYS[repair.code];
    return t(one ? plural(count, one, REPAIR_KEYS[repair.code]) : REPAIR_KEYS[repair.code], { title: repair.conversationTitle, count });
  });
  return repaired.length > 0 ? { repairs: repaired } : {};
}

const STOPPED_KEYS: Record<string, MessageKey> = { save_failed: 'data.importStopped.save_failed', storage_full: 'data.importStopped.storage_full' };

/**
 * A failure after some chunks were written: what is here now (imported, already here, repaired) and why the rest is
 * not. Not the failure's own sentence, whose "nothing was changed" would contradict the first. Undefined otherwise.
 */
function partialImportWords(error: unknown): { text: string; detail?: string; repairs?: string[] } | undefined {
  if (!(error instanceof WireError) || typeof error.params?.imported !== 'number') return undefined;
  const { imported, total = '?', skipped = 0 } = error.params;
  const stoppedKey = Object.hasOwn(STOPPED_KEYS, error.reason ?? error.code) ? STOPPED_KEYS[error.reason ?? error.code]! : 'data.importStopped.other';
  const params = { count: imported, total, skipped, reason: t(stoppedKey) };
  const text = t(typeof skipped === 'number' && skipped > 0 ? 'data.importPartialSkipped' : 'data.importPartial', params);
  // Only an unexplained failure's own words add something (a storage error's text, for instance).
  const detail = error.code === 'storage_full' ? undefined : error.message;
  return { text, ...(detail ? { detail } : {}), ...repairWords(error.repairs ?? []) };
}

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toLocaleString(undefined, { maximumFractionDigits: bytes < 10_000_000 ? 1 : 0 });
}
