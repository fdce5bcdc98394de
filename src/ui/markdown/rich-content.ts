import { codeGrew, enhanceCodeBlocks } from './code-blocks';
import { typesetMaths } from './maths/maths';

/** Adds "Copy code" and colours to the code blocks in `root` (itself included), and typesets its maths. */
export function enhance(root: ParentNode, openCode: HTMLElement | undefined): void {
  enhanceCodeBlocks(root, openCode);
  typesetMaths(root);
}

/** An open code block got more text (and maybe its closing fence). */
export const grew = codeGrew;
