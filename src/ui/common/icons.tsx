import type { JSX } from 'solid-js';
import { MENU_PATH, SETTINGS_CIRCLE, SETTINGS_PATH } from '../icon-paths';

/**
 * Small line icons for the phone layout, drawn in the text colour. Always decorative (`aria-hidden`): the
 * button that holds one keeps its name in text, which narrow screens hide visually (`.label-text`).
 */
function Icon(props: { children: JSX.Element }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
      {props.children}
    </svg>
  );
}

export const MenuIcon = () => (
  <Icon>
    <path d={MENU_PATH} />
  </Icon>
);

export const SettingsIcon = () => (
  <Icon>
    <circle cx={SETTINGS_CIRCLE.cx} cy={SETTINGS_CIRCLE.cy} r={SETTINGS_CIRCLE.r} />
    <path d={SETTINGS_PATH} />
  </Icon>
);

export const MoreIcon = () => (
  <Icon>
    <circle cx="5" cy="12" r="1" fill="currentColor" />
    <circle cx="12" cy="12" r="1" fill="currentColor" />
    <circle cx="19" cy="12" r="1" fill="currentColor" />
  </Icon>
);

export const SendIcon = () => (
  <Icon>
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);

export const StopIcon = () => (
  <Icon>
    <rect x="6" y="6" width="12" height="12" rx="1.5" fill="currentColor" />
  </Icon>
);

export const PreviousIcon = () => (
  <Icon>
    <path d="M15 18l-6-6 6-6" />
  </Icon>
);

export const NextIcon = () => (
  <Icon>
    <path d="M9 18l6-6-6-6" />
  </Icon>
);

export const RegenerateIcon = () => (
  <Icon>
    <path d="M21 12a9 9 0 1 1-2.6-6.4" />
    <path d="M21 4v5h-5" />
  </Icon>
);

export const EditIcon = () => (
  <Icon>
    <path d="M12 20h9" />
    <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
  </Icon>
);

export const DeleteIcon = () => (
  <Icon>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Icon>
);

/** Find's "Older match": up the log. */
export const OlderIcon = () => (
  <Icon>
    <path d="M6 15l6-6 6 6" />
  </Icon>
);

/** Find's "Newer match": down the log. */
export const NewerIcon = () => (
  <Icon>
    <path d="M6 9l6 6 6-6" />
  </Icon>
);

export const CloseIcon = () => (
  <Icon>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);

export const AttachIcon = () => (
  <Icon>
    <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4l7.9-7.9" />
  </Icon>
);
