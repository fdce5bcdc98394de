// Whether this device notifies, as the user chose in Settings (read by attention.ts as requests arrive). Apart from
// attention.ts so Settings' code, which sets these, loads none of what a notification says.

/** The device's choice (never synced): notify when Parley waits and no tab of it is visible. */
const PREFERENCE_KEY = 'parley-notify';
/** The device's choice (never synced): a notification also names its conversation. Off unless set. */
const TITLE_PREFERENCE_KEY = 'parley-notify-title';

export type NotificationState = 'unsupported' | 'off' | 'on' | 'blocked';

/** Whether notifications are on here: the user asked for them, and the browser allows them. */
export function notificationState(): NotificationState {
  if (typeof Notification === 'undefined' || !('serviceWorker' in navigator)) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return Notification.permission === 'granted' && localStorage.getItem(PREFERENCE_KEY) === 'on' ? 'on' : 'off';
}

/** Asks the browser's permission (only ever from the user's click) and turns notifications on if it is given. */
export async function turnNotificationsOn(): Promise<NotificationState> {
  if (notificationState() === 'unsupported') return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission === 'granted') localStorage.setItem(PREFERENCE_KEY, 'on');
  return notificationState();
}

export function turnNotificationsOff(): void {
  localStorage.removeItem(PREFERENCE_KEY);
}

/** Whether a notification names its conversation (its title), as the user chose on this device. */
export function notificationShowsTitle(): boolean {
  return localStorage.getItem(TITLE_PREFERENCE_KEY) === 'on';
}

export function setNotificationShowsTitle(shows: boolean): void {
  if (shows) localStorage.setItem(TITLE_PREFERENCE_KEY, 'on');
  else localStorage.removeItem(TITLE_PREFERENCE_KEY);
}
