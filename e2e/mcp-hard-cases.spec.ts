import type { Page } from '@playwright/test';
import { startMisbehavingServer } from '../tests/server/mcp-test-servers';
import { assistantMessages, messageLog, newConversation, send, useScript, type ScriptStep } from './fixtures';
import { addMcpServer, expect, mcpServerItem, openMcpSettings, permissionSelect, test } from './mcp-servers';

// What can go wrong around a tool, end to end: a stdio server behind a gateway, a result too large for the model,
// arguments the model got wrong, a name no server has, a server that dies mid-call, and a reload while a server
// waits for the user's answer. Each gets a clear word and loses nothing stored.

const SAW: ScriptStep = { text: 'Tool said: {{lastToolResult}}' };
const call = (name: string, args: Record<string, unknown>): ScriptStep => ({ text: 'Calling.', toolCalls: [{ name, args }] });

async function start(page: Page, server: { name: string; url: string }, steps: ScriptStep[], permissions: Record<string, string> = {}): Promise<void> {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, server);
  await expect(mcpServerItem(page, server.name).getByText(/^Connected — \d+ tools?$/)).toBeVisible();
  for (const [tool, label] of Object.entries(permissions)) await permissionSelect(page, tool).selectOption({ label });
  await useScript(page, steps);
  await newConversation(page);
  await send(page, 'go');
}

test('a stdio server through supergateway: approved calls write and read its knowledge graph', async ({ page, mcp }) => {
  const entity = `Parley-${Date.now()}`;
  await start(page, { name: 'memory', url: mcp.memory.url }, [
    call('mcp__memory__create_entities', { entities: [{ name: entity, entityType: 'app', observations: ['asks before it acts'] }] }),
    call('mcp__memory__open_nodes', { names: [entity] }),
    SAW,
  ]);
  for (const tool of ['mcp__memory__create_entities', 'mcp__memory__open_nodes']) {
    const card = page.getByRole('group', { name: `Tool call: ${tool}`, exact: true });
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(card).toHaveCount(0);
  }
  await expect(messageLog(page)).toContainText(`Tool said: `);
  await expect(assistantMessages(page).last()).toContainText('asks before it acts');
});

test('a 5 MB result is cut for the model with a note, the model\'s bad arguments and a wrong name get errors it can act on', async ({ page, mcp }) => {
  await start(page, { name: 'odd', url: mcp.misbehaving.url }, [
    { text: 'Several calls.', toolCalls: [{ name: 'mcp__odd__huge', args: {} }, { name: 'mcp__odd__echo', args: { message: 7 } }, { name: 'mcp__odd__nothing', args: {} }] },
    { text: 'Done.' },
  ], { mcp__odd__huge: 'Always allow', mcp__odd__echo: 'Always allow' });
  // Five megabytes cross the MCP transport and are cut before the next step: on a loaded machine CI saw "Done"
  // without its last chunk after the default ten seconds, so this one wait is longer.
  await expect(messageLog(page)).toContainText('Done.', { timeout: 30_000 });
  const cards = assistantMessages(page).first().locator('.tool-call');
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(0)).toContainText('truncated');
  await expect(cards.nth(1)).toContainText('Please rewrite the input so it satisfies the expected schema.');
  await expect(cards.nth(2)).toContainText('Unknown tool "mcp__odd__nothing"');
  // Nothing stored was lost: a reload shows the same record.
  await page.reload();
  await expect(assistantMessages(page).first().locator('.tool-call')).toHaveCount(3);
});

test('a server that dies mid-call: the call fails in words and the conversation goes on', async ({ page }) => {
  const dying = await startMisbehavingServer();
  try {
    await start(page, { name: 'fragile', url: dying.url }, [call('mcp__fragile__die', {}), SAW], { mcp__fragile__die: 'Always allow' });
    await expect(messageLog(page)).toContainText('Tool said: The tool failed:');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  } finally {
    await dying.stop();
  }
});

test('a reload while a server waits for the user leaves no answerable form behind: the call may be run again', async ({ page, mcp }) => {
  await start(page, { name: 'everything', url: mcp.everything.url }, [call('mcp__everything__trigger-elicitation-request', {}), SAW], {
    'mcp__everything__trigger-elicitation-request': 'Always allow',
  });
  const form = page.getByRole('group', { name: 'Please provide inputs for the following fields:', exact: true });
  await expect(form).toBeVisible();
  await page.reload();
  await expect(page.getByText(/No longer answerable: the app closed while everything waited/)).toBeVisible();
  await expect(form).toHaveCount(0);
  const card = page.getByRole('group', { name: 'Tool call: mcp__everything__trigger-elicitation-request', exact: true });
  await expect(card).toContainText('It may or may not have run. Run it again?');
  // Said once: the question says it; the model's copy of the sentence is not shown beside it.
  await expect(card.getByText(/may or may not have run/)).toHaveCount(1);
  await card.getByRole('button', { name: 'Skip', exact: true }).click();
  await expect(messageLog(page)).toContainText('The user chose not to run it again.');
});
