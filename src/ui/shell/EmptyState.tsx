import { t } from '../i18n/i18n';

/** What a new user sees first: what Parley is, and that the scripted demo works with no key. */
export function EmptyState() {
  return (
    <section class="empty-state" aria-labelledby="empty-state-title">
      <h1 id="empty-state-title">{t('empty.title')}</h1>
      <p>{t('empty.what')}</p>
      <p>{t('empty.demo')}</p>
      <p class="empty-state-try">{t('empty.try')}</p>
    </section>
  );
}
