import { t } from '../i18n/i18n';
import { AppBar, ConversationListHead, ConversationNav } from './AppFrame';

/**
 * The app shell: the first screen's frame, rendered from the app's own components (components/AppFrame.tsx) into
 * index.html at build time (render-app-shell.tsx), so the browser paints it with the page, before any of the app's
 * JavaScript has loaded; the app replaces it without a shift (main.tsx). app-shell-script.ts, inlined after it, gives
 * it the theme, the route's layout and the language before the first paint.
 */
export function AppShell() {
  return (
    <div class="app app-shell" data-route="home" data-nav-open="false">
      <AppBar navExpanded />
      <ConversationNav>
        <div class="conversation-list">
          <ConversationListHead />
        </div>
      </ConversationNav>
      <main class="main-area" />
    </div>
  );
}

/** What a page that frames Parley shows instead (clickjacking): a link to Parley in a tab of its own, and no control. */
export function FramedRefusal() {
  return (
    <p class="framed-refusal">
      <a href="/" target="_blank" rel="noopener">
        {t('framed.openInOwnTab')}
      </a>
    </p>
  );
}
