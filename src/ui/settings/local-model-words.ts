/** The in-browser model's status, download progress, sizes and durations as the profile form says them. */

import type { LocalModelStatus } from '../../schema/protocol';
import { t } from '../i18n/i18n';

/** The status line: stored or not, how the engine runs (or will), the last speed. */
export function statusText(status: LocalModelStatus | undefined): string {
  if (!status) return '';
  const parts: string[] = [];
  if (status.state === 'ready') parts.push(t('localModel.ready'), t('localModel.stored', { size: formatBytes(status.storedBytes) }));
  else if (status.state === 'downloading') parts.push(t('localModel.downloading'));
  else if (status.state === 'paused') parts.push(t('localModel.paused'));
  else if (status.state === 'absent') parts.push(t('localModel.absent'));
  const engine = status.backend
    ? t(`localModel.backend.${status.backend}`, { threads: status.threads ?? 1 })
    : t(status.crossOriginIsolated ? 'localModel.willRunMulti' : 'localModel.willRunSingle');
  parts.push(engine);
  if (status.lastTokensPerSecond !== undefined) parts.push(t('localModel.speed', { rate: status.lastTokensPerSecond }));
  return parts.join(' ');
}

/** The download's bytes, rate and time left, as far as the worker knows them. */
export function progressText(status: LocalModelStatus | undefined): string {
  if (!status) return '';
  const parts = [status.totalBytes ? t('localModel.bytesOf', { done: formatBytes(status.storedBytes), total: formatBytes(status.totalBytes) }) : formatBytes(status.storedBytes)];
  if (status.bytesPerSecond !== undefined) parts.push(t('localModel.rate', { rate: formatBytes(status.bytesPerSecond) }));
  if (status.secondsLeft !== undefined) parts.push(t('localModel.left', { time: formatDuration(status.secondsLeft) }));
  return parts.join(' · ');
}

/** A size in KB, MB or GB (decimal units, as download sizes are listed). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`;
  return `${Math.max(0, Math.round(bytes / 1e3))} KB`;
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
