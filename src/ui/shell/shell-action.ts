/**
 * The selector of the app's button that matches one of the app shell's: the shell is the app's own markup
 * (components/AppFrame.tsx), so its buttons have the app's classes. A click or the focus on the shell's button is
 * passed on to the app's (main.tsx).
 */
export function shellAction(button: Element): string {
  return ['button', ...button.classList].join('.');
}
