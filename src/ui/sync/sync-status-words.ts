import type { SyncRefusals, SyncStatus } from '../../schema/sync/sync';
import { formatMoment, t, type MessageKey } from '../i18n/i18n';

type SyncReason = NonNullable<SyncStatus['reason']>;

/** Every reason a SyncStatus can carry, worded (a missing entry fails the type check). */
const REASON_KEYS: Record<SyncReason, MessageKey> = {
  wrong_passphrase: 'sync.reason.wrong_passphrase',
  unauthorized: 'sync.reason.unauthorized',
  unreachable: 'sync.reason.unreachable',
  not_a_database: 'sync.reason.not_a_database',
  key_missing: 'sync.reason.key_missing',
  server_full: 'sync.reason.server_full',
  server_error: 'sync.reason.server_error',
  no_crypto: 'sync.reason.no_crypto',
  key_replaced: 'sync.reason.key_replaced',
  database_missing: 'sync.reason.database_missing',
};

/** What Settings → Sync's status says, in the UI's language; numbers and times in its locale. */
export function syncStatusText(status: SyncStatus, locale: string, now: number = Date.now()): string {
  switch (status.state) {
    case 'off':
      return t('sync.state.off');
    case 'starting':
      return t('sync.state.starting');
    case 'syncing': {
      const progress = status.progress;
      if (!progress || progress.total === 0) return t('sync.state.syncing');
      const number = new Intl.NumberFormat(locale);
      return t('sync.state.syncingProgress', { done: number.format(Math.min(progress.done, progress.total)), total: number.format(progress.total) });
    }
    case 'synced':
      // "Synced" is said only when nothing from the server was refused.
      if (status.refused) return refusalSummary(status.refused, locale);
      return status.lastSyncedAt === undefined ? t('sync.state.synced') : t('sync.state.syncedAt', { time: formatMoment(status.lastSyncedAt, locale, now) });
    case 'offline':
      return t('sync.state.offline');
    case 'error':
      // A reason this version does not know (a newer worker's) still says that sync stopped.
      return status.reason !== undefined && Object.hasOwn(REASON_KEYS, status.reason) ? t(REASON_KEYS[status.reason]) : t('sync.state.error');
  }
}

/** "3 documents on the server could not be used — they may have been changed by someone else." */
export function refusalSummary(refused: SyncRefusals, locale: string): string {
  const count = refused.unreadable + refused.replayed + refused.misplaced;
  const form = new Intl.PluralRules(locale).select(count) === 'one' ? 'sync.refused.one' : 'sync.refused.other';
  return t(form, { count: new Intl.NumberFormat(locale).format(count) });
}
