import { plural, t } from '../i18n/i18n';

/** A file's size as people read it: bytes below 1 KB, then KB and MB with one decimal under 10 (1024-based, as the limits). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return t(plural(bytes, 'attach.size.byte', 'attach.size.bytes'), { size: bytes });
  const round = (value: number) => (value < 10 ? Math.round(value * 10) / 10 : Math.round(value));
  if (bytes < 1024 * 1024) return t('attach.size.kb', { size: round(bytes / 1024) });
  return t('attach.size.mb', { size: round(bytes / (1024 * 1024)) });
}
