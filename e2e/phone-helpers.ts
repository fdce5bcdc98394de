import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { messageLog } from './fixtures';
import { questionForm, type ScriptQuestion } from './question-helpers';

/** A phone held upright, as the issue tried it: 360×740 with touch. */
export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;

const DESCRIPTIONS = [
  'A longer description that wraps over several lines on a phone, so the option row grows taller than one line of text',
  'Mixed content: numbers 1234567890, a URL-like token https://example.com/a/very/long/path/that/should/wrap/anywhere',
];

function tenOptions(prefix: string): ScriptQuestion['options'] {
  return Array.from({ length: 10 }, (_, index) => ({
    label: `${prefix} option ${index + 1}`,
    description: `${DESCRIPTIONS[index % 2]} (${prefix} ${index + 1}).`,
  }));
}

/** Four questions of ten options with long descriptions (the second is multiple choice): a form taller than a phone. */
export const LONG_QUESTIONS: ScriptQuestion[] = [
  { header: 'Destination', question: 'Where would you like to travel for the long weekend in early spring?', options: tenOptions('Place') },
  { header: 'Activities', question: 'Which activities should the plan include? Pick as many as you like.', options: tenOptions('Activity'), multiple: true },
  { header: 'Budget', question: 'How much would you like to spend in total, travel and lodging included?', options: tenOptions('Budget') },
  { header: 'Pace', question: 'What pace suits you best for the days you are away?', options: tenOptions('Pace') },
];

/** The legend (question text) of a question in the open form. */
export function questionText(page: Page, question: ScriptQuestion): Locator {
  return questionForm(page).locator('legend').filter({ hasText: question.question });
}

/** Fails unless `target` lies wholly inside both the window and the visible part of the messages log. */
export async function expectInView(page: Page, target: Locator, what: string): Promise<void> {
  // Measured until it holds: on a loaded machine the form may still be scrolling into place when first read.
  await expect(async () => {
    const box = await target.boundingBox();
    const log = await messageLog(page).boundingBox();
    const viewport = page.viewportSize()!;
    expect(box, `${what} is laid out`).not.toBeNull();
    expect(box!.y, `${what}: top inside the log`).toBeGreaterThanOrEqual(log!.y - 0.5);
    expect(box!.y + box!.height, `${what}: bottom inside the log`).toBeLessThanOrEqual(log!.y + log!.height + 0.5);
    expect(box!.y, `${what}: inside the window`).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height, `${what}: inside the window`).toBeLessThanOrEqual(viewport.height);
  }).toPass({ timeout: 10_000 });
}

/** Fails when the page, or the question form, would need a sideways scroll; or when the page itself scrolled. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const sizes = await page.evaluate(() => {
    const root = document.scrollingElement!;
    const form = document.querySelector('form.question-form__pending');
    return {
      page: [root.scrollWidth, root.clientWidth],
      form: form ? [form.scrollWidth, form.clientWidth] : [0, 0],
      pageScrollTop: root.scrollTop,
    };
  });
  expect(sizes.page[0], 'page scrollWidth ≤ clientWidth').toBeLessThanOrEqual(sizes.page[1]!);
  expect(sizes.form[0], 'form scrollWidth ≤ clientWidth').toBeLessThanOrEqual(sizes.form[1]!);
  expect(sizes.pageScrollTop, 'the page behind never scrolls').toBe(0);
}

/** Fails with every target smaller than 44×44 px among `targets` (the visible ones). */
export async function expectTouchTargets(targets: Locator, what: string): Promise<void> {
  const small: string[] = [];
  for (const target of await targets.all()) {
    if (!(await target.isVisible())) continue;
    const box = await target.boundingBox();
    if (box && (box.width < 43.5 || box.height < 43.5)) {
      const name = (await target.getAttribute('aria-label')) ?? (await target.innerText()).slice(0, 40);
      small.push(`${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  expect(small, `${what}: touch targets under 44×44 px`).toEqual([]);
}

/** The WCAG 2.1 A/AA scan of e2e/accessibility.spec.ts: no serious or critical finding. */
export async function expectAxeClean(page: Page, view: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`).join('\n');
  expect(blocking.map((violation) => violation.id), `axe in ${view}:\n${report}`).toEqual([]);
}
