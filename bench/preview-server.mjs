// `vite preview` of a build, which also answers /bench-blank with the benchmark's empty baseline page (with the app's
// headers). Run by
// harness.mjs's startPreview as a process of its own, so serving never waits for the benchmark's own work:
//   node bench/preview-server.mjs <port> <build directory>
import { pathToFileURL } from 'node:url';
import { preview } from 'vite';

export const BLANK_PAGE = '<!doctype html><title>blank</title><p>blank</p>';

// Run as a program (harness.mjs imports it for BLANK_PAGE only).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [port, outDir] = process.argv.slice(2);
  const blankPage = {
    name: 'bench-blank-page',
    configurePreviewServer(server) {
      server.middlewares.use((request, response, next) => {
        if (request.url !== '/bench-blank') return next();
        // The app's own headers too (cross-origin isolation): a page of another isolation would cost the app's load a
        // renderer process of its own when the benchmark goes from this page to the app, and the baseline would not.
        for (const [name, value] of Object.entries(server.config.preview.headers ?? {})) response.setHeader(name, value);
        response.setHeader('Content-Type', 'text/html');
        response.end(BLANK_PAGE);
      });
    },
  };
  await preview({ preview: { port: Number(port), strictPort: true }, build: { outDir }, plugins: [blankPage], logLevel: 'warn' });
}
