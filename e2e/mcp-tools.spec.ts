import type { Page } from '@playwright/test';
import { assistantMessages, messageLog, newConversation, send, useScript, type ScriptStep } from './fixtures';
import { addMcpServer, expect, openMcpSettings, permissionSelect, test } from './mcp-servers';

// Real tools through real MCP servers: the scripted model calls a tool by its model-facing name, the user approves,
// edits, denies or answers the server's own questions, and what the server returned reaches the next model step.

const SAW: ScriptStep = { text: 'Tool said: {{lastToolResult}}' };

function callStep(name: string, args: Record<string, unknown>): ScriptStep {
  return { text: 'Calling a tool.', toolCalls: [{ name, args }] };
}

/** Adds a server named "everything" at `url` through Settings, gives the scripted model `steps`, and sends a message. */
async function start(page: Page, url: string, steps: ScriptStep[], permissions: Record<string, string> = {}): Promise<void> {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'everything', url });
  for (const [tool, label] of Object.entries(permissions)) await permissionSelect(page, tool).selectOption({ label });
  await useScript(page, steps);
  await newConversation(page);
  await send(page, 'go');
}

/** The list's pill, the header's status and the composer's hint all name what waits, and none says "question". */
async function expectWaiting(page: Page, words: { pill: string; status: string; hint: string }): Promise<void> {
  const item = page.locator('li[data-pending="true"]');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(words.pill);
  await expect(page.getByRole('status').filter({ hasText: words.status })).toBeVisible();
  await expect(page.locator('.composer-hint')).toContainText(words.hint);
  await expect(page.getByText(/question is waiting|Question waiting|Waiting for your answer/)).toHaveCount(0);
}

function approval(page: Page, tool: string) {
  return page.getByRole('group', { name: `Tool call: ${tool}`, exact: true });
}

test('a call waits for approval through a reload, then Allow runs it once and the result reaches the model', async ({ page, mcp }) => {
  mcp.counted.calls.length = 0;
  await start(page, mcp.counted.url, [callStep('mcp__everything__echo', { message: 'hi' }), SAW]);
  const card = approval(page, 'mcp__everything__echo');
  await expect(card).toBeVisible();
  // Named by what waits: an approval is not a question.
  await expectWaiting(page, { pill: 'Approval waiting', status: 'Waiting for your approval', hint: 'A tool call is waiting above.' });
  await page.reload();
  await expect(card).toBeVisible();
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call')).toEqual([]);
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(messageLog(page)).toContainText('Tool said: Echo: hi');
  await expect(card).toHaveCount(0);
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call')).toEqual([{ method: 'tools/call', tool: 'echo', arguments: { message: 'hi' } }]);
});

test('an approval on screen readies its server (connected after a reload, pinged once its preflight expired), and Allow runs the call once', async ({ page, mcp }) => {
  await start(page, mcp.counted.url, [callStep('mcp__everything__echo', { message: 'ready' }), SAW]);
  const card = approval(page, 'mcp__everything__echo');
  await expect(card).toBeVisible();
  mcp.counted.calls.length = 0;
  await page.reload();
  await expect(card.getByRole('button', { name: 'Allow', exact: true })).toBeVisible();
  // The new worker connects only because the card asks it to; it pings once that connection's preflight has expired.
  await expect.poll(() => mcp.counted.calls.map((call) => call.method), { timeout: 30_000 }).toEqual(expect.arrayContaining(['initialize', 'ping']));
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call')).toEqual([]);
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(messageLog(page)).toContainText('Tool said: Echo: ready');
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call')).toEqual([{ method: 'tools/call', tool: 'echo', arguments: { message: 'ready' } }]);
});

test('edited arguments are what reaches the server, and the model is told', async ({ page, mcp }) => {
  mcp.counted.calls.length = 0;
  await start(page, mcp.counted.url, [callStep('mcp__everything__echo', { message: 'from the model' }), SAW]);
  const card = approval(page, 'mcp__everything__echo');
  await card.getByRole('button', { name: 'Edit arguments', exact: true }).click();
  const box = card.getByRole('textbox', { name: 'Arguments', exact: true });
  await expect(box).toHaveValue(/from the model/);
  await box.fill('{ "message": 42 }');
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(card.getByRole('alert')).toContainText('do not fit what mcp__everything__echo accepts');
  await box.fill('{ "message": "from the user" }');
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(messageLog(page)).toContainText('It ran with: {"message":"from the user"}');
  await expect(messageLog(page)).toContainText('Echo: from the user');
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call').map((call) => call.arguments)).toEqual([{ message: 'from the user' }]);
});

test('Deny with a reason runs nothing and the model reads the reason', async ({ page, mcp }) => {
  mcp.counted.calls.length = 0;
  await start(page, mcp.counted.url, [callStep('mcp__everything__echo', { message: 'hi' }), SAW]);
  const card = approval(page, 'mcp__everything__echo');
  await card.getByRole('textbox', { name: 'Reason', exact: true }).fill('Not today');
  await card.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(messageLog(page)).toContainText('Tool said: Not run: the user denied this tool call. The user\'s reason: "Not today".');
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call')).toEqual([]);
});

test('"Always allow" runs without asking and says so, with a link to the permission; "Never" is refused as your choice', async ({ page, mcp }) => {
  await start(page, mcp.everything.url, [callStep('mcp__everything__get-sum', { a: 2, b: 3 }), SAW, callStep('mcp__everything__echo', { message: 'x' }), SAW], {
    'mcp__everything__get-sum': 'Always allow',
    mcp__everything__echo: 'Never',
  });
  await expect(messageLog(page)).toContainText('Tool said: The sum of 2 and 3 is 5.');
  await expect(page.getByRole('group', { name: /^Tool call:/ })).toHaveCount(0);
  const ran = assistantMessages(page).locator('.tool-call').filter({ hasText: 'mcp__everything__get-sum' });
  await expect(ran).toContainText('Ran without asking — Always allow');

  await send(page, 'again');
  await expect(messageLog(page)).toContainText('Tool said: Not run: the user set mcp__everything__echo to "Never", so it is not available.');
  const refused = assistantMessages(page).locator('.tool-call').filter({ hasText: 'mcp__everything__echo' });
  await expect(refused).toContainText('Not run');
  await expect(refused).toContainText('You set this tool to Never.');
  await expect(refused).not.toContainText('Failed');
  await expect(refused).not.toContainText('Unknown tool');

  // The link opens Settings at that tool's permission, focused, ready to change.
  await page.getByRole('link', { name: 'Change permission of mcp__everything__get-sum', exact: true }).click();
  await expect(page).toHaveURL(/#\/settings\?tool=mcp__everything__get-sum$/);
  await expect(permissionSelect(page, 'mcp__everything__get-sum')).toBeFocused();
  await page.goBack();
  await page.getByRole('link', { name: 'Change permission of mcp__everything__echo', exact: true }).click();
  await expect(permissionSelect(page, 'mcp__everything__echo')).toBeFocused();
  await expect(permissionSelect(page, 'mcp__everything__echo')).toHaveValue('never');
});

for (const width of [1280, 360]) {
  test(`a long tool shows its server's progress while it runs, named by the tool (${width} px)`, async ({ page, mcp }) => {
    const tool = 'mcp__everything__trigger-long-running-operation';
    // Sixteen seconds, so the card is still running while it is measured on a busy machine (four were missed, and eight
    // once under two busy loops).
    await start(page, mcp.everything.url, [callStep(tool, { duration: 16, steps: 4 }), SAW], { [tool]: 'Always allow' });
    await page.setViewportSize({ width, height: 740 });
    const bar = page.getByRole('progressbar', { name: `Progress of ${tool}`, exact: true });
    await expect(bar).toBeVisible();
    // Measured from the bar in one step: a locator filtered by the bar stops matching once the tool ends.
    const right = await bar.evaluate((element) => element.closest('.tool-call')!.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(width);
    const card = assistantMessages(page).locator('.tool-call').filter({ has: bar });
    await expect(card).toContainText(/[1-3] of 4/);
    await expect(card).toContainText('Running without asking — Always allow');
    await expect(messageLog(page)).toContainText('Tool said: Long running operation completed. Duration: 16 seconds, Steps: 4.', { timeout: 30_000 });
    await expect(bar).toHaveCount(0);
  });
}

test('elicitation: Submit, Decline and Cancel each reach the server', async ({ page, mcp }) => {
  const elicit = callStep('mcp__everything__trigger-elicitation-request', {});
  await start(page, mcp.everything.url, [elicit, SAW, elicit, SAW, elicit, SAW], { 'mcp__everything__trigger-elicitation-request': 'Always allow' });
  const form = page.getByRole('group', { name: 'Please provide inputs for the following fields:', exact: true });
  await expect(form).toBeVisible();
  await expectWaiting(page, { pill: 'Form waiting', status: 'Waiting for you to fill in a form', hint: 'A server’s form is waiting above.' });
  await form.getByRole('textbox', { name: 'String', exact: true }).fill('Ada Lovelace');
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(messageLog(page)).toContainText('User provided the requested information!');
  await expect(messageLog(page)).toContainText('Ada Lovelace');

  await send(page, 'again');
  await form.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(messageLog(page)).toContainText('User declined to provide the requested information.');

  await send(page, 'once more');
  await form.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(messageLog(page)).toContainText('User cancelled the elicitation dialog.');
});

test('elicitation: Submit with the required field empty marks that field and sends nothing', async ({ page, mcp }) => {
  await start(page, mcp.everything.url, [callStep('mcp__everything__trigger-elicitation-request', {}), SAW], { 'mcp__everything__trigger-elicitation-request': 'Always allow' });
  const form = page.getByRole('group', { name: 'Please provide inputs for the following fields:', exact: true });
  const name = form.getByRole('textbox', { name: 'String', exact: true });
  await expect(name).toHaveAttribute('aria-required', 'true');
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await expect(name).toHaveAccessibleDescription(/^Required: fill this in\./);
  // Still the server's question: an empty name was not sent as an answer.
  await expect(form).toBeVisible();
  await expect(messageLog(page)).not.toContainText('User provided the requested information!');
  await name.fill('Grace Hopper');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(messageLog(page)).toContainText('User provided the requested information!');
  await expect(messageLog(page)).toContainText('Grace Hopper');
});

test('two tabs pressing Allow at once run the tool once', async ({ page, mcp }) => {
  mcp.counted.calls.length = 0;
  await start(page, mcp.counted.url, [callStep('mcp__everything__echo', { message: 'once' }), SAW]);
  const other = await page.context().newPage();
  await other.goto(page.url());
  const here = approval(page, 'mcp__everything__echo');
  const there = approval(other, 'mcp__everything__echo');
  await expect(here).toBeVisible();
  await expect(there).toBeVisible();
  // Both press at once. The first decision to reach storage closes the card in the other tab too (its peer hint), so a
  // click that comes a moment late may find no button any more: that is the behaviour, not a failure.
  const press = (card: typeof here) => card.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 5_000 }).then(() => 'clicked', () => 'card already closed');
  const pressed = await Promise.all([press(here), press(there)]);
  expect(pressed).toContain('clicked');
  await expect(messageLog(page)).toContainText('Tool said: Echo: once');
  await expect(messageLog(other)).toContainText('Tool said: Echo: once');
  expect(mcp.counted.calls.filter((call) => call.method === 'tools/call')).toHaveLength(1);
});

test('Stop during a long-running tool cancels it on the server and records stopped', async ({ page, mcp }) => {
  mcp.counted.calls.length = 0;
  await start(page, mcp.counted.url, [callStep('mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 }), SAW], {
    'mcp__everything__trigger-long-running-operation': 'Always allow',
  });
  await expect(assistantMessages(page).last().getByText('Running…', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(assistantMessages(page).last().getByText('Stopped', { exact: true })).toBeVisible();
  await expect(messageLog(page)).toContainText('The user stopped the run while this tool was running');
  await expect.poll(() => mcp.counted.calls.map((call) => call.method)).toContain('notifications/cancelled');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
});
