import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The end-to-end suite's port (README, "Quick start"): `npm test` must work while `npm start` serves the app on 4173, so the
// suite picks a free port unless PARLEY_E2E_PORT forces one, and hands the one it picked to its workers.

/** e2e/fixtures.ts as the runner loads it, fresh; a computed path keeps the e2e project's types out of this one. */
async function loadFixtures(): Promise<{ E2E_PORT: number; BASE_URL: string }> {
  vi.resetModules();
  const path = ['..', '..', 'e2e', 'fixtures.ts'].join('/');
  return (await import(/* @vite-ignore */ path)) as { E2E_PORT: number; BASE_URL: string };
}

/** Listens on `port` on every interface, as `vite preview` does; rejects when something already listens there. */
function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

const saved = process.env.PARLEY_E2E_PORT;
const servers: Server[] = [];
afterEach(async () => {
  if (saved === undefined) delete process.env.PARLEY_E2E_PORT;
  else process.env.PARLEY_E2E_PORT = saved;
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('the end-to-end suite’s port', () => {
  it('is a free one, not npm start’s 4173, when none is forced, and reaches the workers through PARLEY_E2E_PORT', async () => {
    // npm start serving the app (if something else already holds 4173, it is taken all the same).
    servers.push(...(await listen(4173).then((server) => [server], () => [])));
    delete process.env.PARLEY_E2E_PORT;
    const { E2E_PORT, BASE_URL } = await loadFixtures();
    expect(E2E_PORT).not.toBe(4173);
    expect(BASE_URL).toBe(`http://localhost:${E2E_PORT}`);
    expect(process.env.PARLEY_E2E_PORT).toBe(String(E2E_PORT));
    // vite preview --strictPort can take it.
    servers.push(await listen(E2E_PORT));
  });

  it('is the one PARLEY_E2E_PORT names, when it names one', async () => {
    process.env.PARLEY_E2E_PORT = '4999';
    const { E2E_PORT, BASE_URL } = await loadFixtures();
    expect(E2E_PORT).toBe(4999);
    expect(BASE_URL).toBe('http://localhost:4999');
  });
});
