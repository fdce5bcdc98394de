import { within } from '../code-blocks';
import { t } from '../../i18n/i18n';

type Typesetter = typeof import('./katex-typeset');
let typesetter: Typesetter | undefined;
let loading: Promise<Typesetter> | undefined;

/**
 * Typesets the maths placeholders in `root` (maths-syntax.ts writes them, TeX source as text). KaTeX and its styles and
 * fonts load with the first message that has maths; once loaded, maths renders at once (a streamed paragraph is
 * rendered again per update, and must not flash its source).
 */
export function typesetMaths(root: ParentNode): void {
  const elements = within<HTMLElement>(root, '.math-inline, .math-display');
  if (elements.length === 0) return;
  if (typesetter) {
    for (const element of elements) typesetter.typeset(element);
    return;
  }
  loading ??= import('./katex-typeset').then((module) => (typesetter = module));
  loading.then(
    (module) => {
      for (const element of elements) if (element.isConnected) module.typeset(element);
    },
    () => {
      for (const element of elements) if (element.isConnected) element.title = t('maths.unavailable');
    },
  );
}
