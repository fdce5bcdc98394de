import type { JSX } from 'solid-js';
import type { ConversationSearchResult } from '../../schema/protocol';
import { t } from '../i18n/i18n';
import { ConversationSearch } from '../conversations/ConversationSearch';
import { MenuIcon, SettingsIcon } from '../common/icons';

/**
 * The first screen's frame: the bar ("Conversations", the name, "Settings"), the "Conversations" navigation, and at the
 * list's head "New conversation" and the search field. The app renders it (App.tsx, ConversationList.tsx), and so does
 * the build, into index.html as the app shell (shell/AppShell.tsx), so the shell is the app's own markup.
 */
export function AppBar(props: { navExpanded: boolean; settingsCurrent?: boolean; onToggleNav?: () => void; onSettings?: () => void; children?: JSX.Element }) {
  return (
    <header class="app-bar">
      <button type="button" class="button nav-toggle" aria-expanded={props.navExpanded} aria-controls="conversation-nav" onClick={() => props.onToggleNav?.()}>
        <MenuIcon />
        <span class="label-text">{t('nav.conversations')}</span>
      </button>
      <a class="brand" href="#/">
        {t('app.name')}
      </a>
      {props.children}
      <button type="button" class="button settings-button" aria-current={props.settingsCurrent ? 'page' : undefined} onClick={() => props.onSettings?.()}>
        <SettingsIcon />
        <span class="label-text">{t('nav.settings')}</span>
      </button>
    </header>
  );
}

/** The "Conversations" navigation; App.tsx's holds the ConversationList. */
export function ConversationNav(props: { children: JSX.Element }) {
  return (
    <nav id="conversation-nav" class="conversation-nav" aria-label={t('nav.conversations')}>
      {props.children}
    </nav>
  );
}

/**
 * The list's head: "New conversation" and "Search conversations". `search` absent (the app shell): the field waits,
 * disabled, for the app, rather than lose what is typed into it.
 */
export function ConversationListHead(props: { onNew?: () => void; search?: (query: string) => Promise<ConversationSearchResult[]>; onPicked?: () => void }) {
  return (
    <>
      <button type="button" class="button primary new-conversation" onClick={() => props.onNew?.()}>
        {t('conversations.new')}
      </button>
      <ConversationSearch search={props.search ?? (async () => [])} disabled={!props.search} onPicked={props.onPicked} />
    </>
  );
}
