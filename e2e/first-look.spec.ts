import { expect, test, type Locator } from '@playwright/test';
import { askQuestions, questionForm, submitButton } from './question-helpers';

// What a new user sees first, at 360 and 1280 px: a welcome on the phone too, a toast whose × is part of its
// pill, a "Question waiting" pill inside its row, and one submit button while the Review step asks to confirm.

/** Whether `inner`'s box lies within `outer`'s (1 px of rounding allowed). */
async function within(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  if (!a || !b) return false;
  return a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
}

test('a phone’s first run shows the welcome under "New conversation"', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'New conversation', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
  await expect(page.getByText('Start a new conversation and try: “Plan my weekend”.', { exact: true })).toBeVisible();
});

test('the × of "Ready to work offline." is drawn inside its pill, not as a box over it', async ({ page }) => {
  await page.goto('/');
  // The note hides itself after a few seconds: measured in the page, in the frame it is found.
  const measured = await page.waitForFunction(() => {
    const note = [...document.querySelectorAll<HTMLElement>('[role="status"]')].find((element) => element.textContent?.includes('Ready to work offline.'));
    const close = note?.querySelector<HTMLElement>('button[aria-label="Close"]');
    if (!note || !close) return false;
    const [outer, inner] = [note.getBoundingClientRect(), close.getBoundingClientRect()];
    const style = getComputedStyle(close);
    return {
      inside: inner.left >= outer.left - 1 && inner.top >= outer.top - 1 && inner.right <= outer.right + 1 && inner.bottom <= outer.bottom + 1,
      background: style.backgroundColor,
      border: style.borderTopColor,
    };
  });
  expect(await measured.jsonValue()).toEqual({ inside: true, background: 'rgba(0, 0, 0, 0)', border: 'rgba(0, 0, 0, 0)' });
});

test('the "Question waiting" pill stays inside its row, however narrow the list', async ({ page }) => {
  await askQuestions(page);
  await page.addStyleTag({ content: '.app { --nav-width: 9rem; }' });
  const row = page.locator('.conversation-item[data-pending="true"]');
  await expect(row.locator('.badge')).toBeVisible();
  await expect.poll(() => within(row.locator('.badge'), row)).toBe(true);
});

for (const width of [1280, 360]) {
  test(`${width} px: Review says "Not answered yet" until the user skips, with one submit button: "Submit anyway"`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await askQuestions(page);
    await questionForm(page).getByRole('radio', { name: /^Red/ }).check();
    await submitButton(page).click();
    // On a phone the stepper shows Review, with no tabpanel role; on a laptop the Review tab.
    const review = width > 600 ? questionForm(page).getByRole('tabpanel', { name: 'Review' }) : questionForm(page).locator('.question-review');
    await expect(review.getByRole('listitem')).toHaveText([/^Color: Red/, /^Toppings: Not answered yet/, /^Project: Not answered yet/]);
    const anyway = questionForm(page).getByRole('button', { name: 'Submit anyway', exact: true });
    await expect(anyway).toBeVisible();
    // One way to submit, in the foot's place: "Submit answers" gives way to it, with the primary look.
    await expect(submitButton(page)).toHaveCount(0);
    await expect(anyway).toHaveClass(/question-form__submit/);
    await anyway.click();
    await expect(page.getByRole('region', { name: 'Parley’s questions', exact: true }).getByRole('listitem')).toHaveText(['Color: Red', 'Toppings: Skipped', 'Project: Skipped']);
  });
}
