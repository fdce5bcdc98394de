import { render } from 'solid-js/web';
import { createWorkerClient } from './ui/channel';
import { App } from './ui/components/App';
import './ui/styles.css';

const worker = new Worker(new URL('./worker/main.ts', import.meta.url), { type: 'module' });
worker.addEventListener('error', (event) => console.error('Parley: the worker failed', event.message));
const client = createWorkerClient(worker);

// Chromium tells pages, not workers, when the network comes back: pass it on so waiting runs resume at once.
window.addEventListener('online', () => void client.send({ type: 'network.online' }).catch(() => undefined));

// Ask once that the browser not evict our IndexedDB under storage pressure; a refusal changes nothing.
void navigator.storage?.persist?.().catch(() => false);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
render(() => <App client={client} />, root);
