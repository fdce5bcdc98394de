import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of the sync server that holds back part of its answers: while `holdMs` is set, each answer to a
 * pull request (`_changes`, `_bulk_get`) waits that long before it is passed on, so a device receives what another
 * wrote in several late batches (a slow phone network), and can open a conversation while its records still arrive.
 * While `holdWrites` is set (a RegExp without the `g` flag, which would make `test` stateful), a write (POST, PUT) whose
 * body it matches is not passed on until `releaseWrites` (a device's upload of a file's chunks not through yet).
 */
export interface CouchProxy {
  /** The proxy's URL for a database URL of the server. */
  url(databaseUrl: string): string;
  holdMs: number;
  /** Answers held back so far. */
  held: number;
  holdWrites: RegExp | undefined;
  /** Writes held back now. */
  heldWrites(): number;
  /** Passes on the writes held back, and those to come. */
  releaseWrites(): void;
  stop(): Promise<void>;
}

const PULL = /\/_(changes|bulk_get)$/;

export async function startCouchProxy(serverOrigin: string): Promise<CouchProxy> {
  const target = new URL(serverOrigin);
  const proxy: CouchProxy = {
    url: (databaseUrl) => `${origin}${new URL(databaseUrl).pathname}`,
    holdMs: 0,
    held: 0,
    holdWrites: undefined,
    heldWrites: () => waiting.length,
    releaseWrites: () => {
      proxy.holdWrites = undefined;
      for (const pass of waiting.splice(0)) pass();
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The browser's live replication keeps a longpoll open: closed here, not waited for.
        server.closeAllConnections();
      }),
  };
  const waiting: Array<() => void> = [];
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', target);
    if (!proxy.holdWrites || (incoming.method !== 'POST' && incoming.method !== 'PUT')) return pass(incoming, outgoing, url);
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const body = Buffer.concat(parts);
      const send = () => pass(incoming, outgoing, url, body);
      if (proxy.holdWrites?.test(body.toString('utf8'))) waiting.push(send);
      else send();
    });
  });
  /** Forwards a request (its body read already, or streamed) and its answer, the answer held back as `holdMs` says. */
  function pass(incoming: IncomingMessage, outgoing: ServerResponse, url: URL, body?: Buffer): void {
    const upstream = forward(url, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer: IncomingMessage) => {
      const hold = PULL.test(url.pathname) ? proxy.holdMs : 0;
      if (hold > 0) proxy.held += 1;
      setTimeout(() => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      }, hold);
    });
    upstream.on('error', () => outgoing.destroy());
    if (body) upstream.end(body);
    else incoming.pipe(upstream);
  }
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
