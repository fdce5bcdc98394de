import { createResource, createSignal, createUniqueId, For, onCleanup, Show, type JSX } from 'solid-js';
import { Portal } from 'solid-js/web';
import type { AttachmentMeta } from '../../schema/attachments/attachments';
import type { AttachmentRefusal } from '../../schema/attachments/attachment-kinds';
import type { WorkerClient } from '../state/channel';
import { fileSize } from './file-size';
import { listOf, t, type MessageKey } from '../i18n/i18n';
import { visibleFileName } from '../../schema/attachments/file-name';
import type { PendingAttachment } from './attachment-drafts';
import { CloseableDialog } from '../common/CloseableDialog';
import './attachments.css';

/** The composer's files: why those offered last were refused (in words), and the chips of those waiting to be sent. */
export function ComposerAttachments(props: { attachments: readonly PendingAttachment[]; refusals: readonly AttachmentRefusal[]; onRemove(key: string): void }) {
  return (
    <>
      <Show when={props.refusals.length > 0}>
        <div class="attachment-refusals" role="alert">
          <For each={refusalGroups(props.refusals)}>{(group) => <p>{refusalText(group)}</p>}</For>
        </div>
      </Show>
      <Show when={props.attachments.length > 0}>
        <AttachmentChips attachments={props.attachments} onRemove={(key) => props.onRemove(key)} />
      </Show>
    </>
  );
}

/** Refusals said alike (same reason, and for size the same limit), with the names of every file they concern. */
interface RefusalGroup {
  refusal: AttachmentRefusal;
  names: string[];
}

/** One sentence per reason, not one per file: three archives are one explanation listing three names. */
function refusalGroups(refusals: readonly AttachmentRefusal[]): RefusalGroup[] {
  const groups = new Map<string, RefusalGroup>();
  for (const refusal of refusals) {
    const key = refusal.reason === 'too_large' ? `${refusal.reason} ${refusal.limit}` : refusal.reason;
    const group = groups.get(key) ?? { refusal, names: [] };
    if ('name' in refusal) group.names.push(refusal.name);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Why files were not attached, in the UI's language, their names isolated from the sentence (see FileName). */
function refusalText(group: RefusalGroup): JSX.Element {
  const refusal = group.refusal;
  const many = group.names.length > 1;
  switch (refusal.reason) {
    case 'unsupported_type':
      return withFileNames(many ? 'attach.refused.unsupported_type.many' : 'attach.refused.unsupported_type', group.names);
    case 'too_large':
      return many
        ? withFileNames('attach.refused.too_large.many', group.names, { limit: fileSize(refusal.limit) })
        : withFileNames('attach.refused.too_large', group.names, { size: fileSize(refusal.size), limit: fileSize(refusal.limit) });
    case 'too_many':
      return t('attach.refused.too_many', { limit: refusal.limit });
    case 'images_not_accepted':
      return withFileNames(many ? 'attach.refused.images_not_accepted.many' : 'attach.refused.images_not_accepted', group.names);
  }
}

const SLOT = /\u0000(\d+)\u0000/;

/**
 * The sentence of `key` with the files' names as FileName elements, not as text: one name in its `{name}` place, several
 * as the UI language's list (“a”, “b”, and “c”; “a”、“b”和“c”) in its `{names}` place.
 */
function withFileNames(key: MessageKey, names: readonly string[], params: Readonly<Record<string, string | number>> = {}): JSX.Element {
  const slots = names.map((_, index) => `\u0000${index}\u0000`);
  const list: Record<string, string> = slots.length === 1 ? { name: slots[0]! } : { names: listOf(slots.map((slot) => `“${slot}”`)) };
  const parts = t(key, { ...params, ...list }).split(SLOT);
  // split() with a group alternates text and the captured slot numbers: text, 0, text, 1, text…
  return <>{parts.map((part, index) => (index % 2 === 0 ? part : <FileName name={names[Number(part)]!} />))}</>;
}

/**
 * A file's name, wherever it is shown: isolated from the text around it (`<bdi>`), its bidi controls shown as their code
 * points, so "report\u202Etxt.pdf" reads "report⟨U+202E⟩txt.pdf" and not "reportfdp.txt".
 */
function FileName(props: { name: string; class?: string }) {
  return <bdi class={props.class}>{visibleFileName(props.name)}</bdi>;
}

/**
 * The files waiting in the composer: an image as a thumbnail (an object URL of the user's own file, revoked when the
 * chip goes), any other as a chip with its name; each with its size and button "Remove attachment".
 */
export function AttachmentChips(props: { attachments: readonly PendingAttachment[]; onRemove(key: string): void }) {
  return (
    <ul class="attachment-chips" aria-label={t('attach.list')}>
      <For each={props.attachments}>
        {(attachment) => (
          <li class="attachment-chip" data-kind={attachment.kind}>
            <Show when={attachment.kind === 'image'} fallback={<FileGlyph />}>
              <ObjectUrlImage blob={attachment.file} />
            </Show>
            <span class="attachment-chip__text">
              <FileName class="attachment-chip__name" name={attachment.file.name} />
              {/* Read aloud as "notes.md, 22 bytes", not run together. */}
              <span class="visually-hidden">, </span>
              <span class="attachment-chip__size">{fileSize(attachment.file.size)}</span>
            </span>
            <button type="button" class="attachment-chip__remove" aria-label={t('attach.remove')} title={t('attach.remove')} onClick={() => props.onRemove(attachment.key)}>
              <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </li>
        )}
      </For>
    </ul>
  );
}

/** What the page needs of the worker for sent files: reading them, and (with sync) hearing when one arrives. */
type SentFilesClient = Pick<WorkerClient, 'send'> & Partial<Pick<WorkerClient, 'onEvent'>>;

/**
 * The files sent with a message, under it: images as thumbnails read from storage when shown (the worker sends the
 * Blob; the object URL is revoked when the message leaves the page), other files as chips with name and size. A file
 * another device sent whose bytes have not arrived yet says so in words, and shows itself once they have.
 */
export function MessageAttachments(props: { attachments: readonly AttachmentMeta[]; client: SentFilesClient }) {
  return (
    <ul class="attachment-chips attachment-chips--sent" aria-label={t('attach.sent')}>
      <For each={props.attachments}>{(attachment) => <SentFile attachment={attachment} client={props.client} />}</For>
    </ul>
  );
}

/**
 * A sent file as this device holds it: here (its bytes), still syncing from another device, arrived but not stored for
 * lack of space, or no longer stored.
 */
type SentFileState = { kind: 'here'; blob: Blob } | { kind: 'syncing' } | { kind: 'unsaved' } | { kind: 'gone' };

/** Shown in place (the chip says "not here yet", or shows the file's glyph), never as a toast for every message shown. */
function readSentFile(client: SentFilesClient, attachmentId: string): Promise<SentFileState> {
  return client.send({ type: 'attachment.read', attachmentId }, { showsErrors: true }).then(
    (read): SentFileState => ({ kind: 'here', blob: read.blob }),
    (error: unknown): SentFileState => {
      const { code, reason } = error as { code?: string; reason?: string };
      return { kind: reason === 'attachment_syncing' ? 'syncing' : code === 'storage_full' ? 'unsaved' : 'gone' };
    },
  );
}

function SentFile(props: { attachment: AttachmentMeta; client: SentFilesClient }) {
  const [read, { refetch }] = createResource(() => props.attachment.id, (id) => readSentFile(props.client, id));
  /**
   * The bytes sync stored here since the file was read. Kept apart from the read: an arrival heard while the first read
   * is still on its way (the worker answers it after the rest of what sync brings) is not lost when that read answers
   * "still syncing" from before the file was stored.
   */
  const [arrived, setArrived] = createSignal<Blob>();
  const file = (): SentFileState | undefined => {
    const blob = arrived();
    return blob ? { kind: 'here', blob } : read();
  };
  // Shown (or read again) when sync stores its bytes here, unless it is shown already.
  const unsubscribe = props.client.onEvent?.((event) => {
    if (event.type !== 'attachment-arrived' || event.attachmentId !== props.attachment.id || file()?.kind === 'here') return;
    if (event.blob) setArrived(event.blob);
    else void refetch(); // a read still on its way is superseded by this one
  });
  if (unsubscribe) onCleanup(unsubscribe);
  const here = () => {
    const state = file();
    return state?.kind === 'here' ? state.blob : undefined;
  };
  /** What the chip says while the file's bytes are not stored here. */
  const notHere = (): MessageKey | undefined => {
    const kind = file()?.kind;
    const image = props.attachment.kind === 'image';
    if (kind === 'syncing') return image ? 'attach.syncing.image' : 'attach.syncing.file';
    return kind === 'unsaved' ? (image ? 'attach.unsaved.image' : 'attach.unsaved.file') : undefined;
  };
  return (
    <li class="attachment-chip" data-kind={props.attachment.kind} data-syncing={file()?.kind === 'syncing' ? 'true' : undefined}>
      <Show when={props.attachment.kind === 'image' && here()} fallback={<FileGlyph />}>
        {(blob) => <StoredImage blob={blob()} name={props.attachment.name} />}
      </Show>
      <span class="attachment-chip__text">
        <FileName class="attachment-chip__name" name={props.attachment.name} />
        <span class="visually-hidden">, </span>
        <span class="attachment-chip__size">{fileSize(props.attachment.size)}</span>
        <Show when={notHere()}>
          {(words) => (
            <>
              <span class="visually-hidden">, </span>
              <span class="attachment-chip__syncing">{t(words())}</span>
            </>
          )}
        </Show>
      </span>
    </li>
  );
}

/** A sent image: its thumbnail opens it larger (ImageViewer). */
function StoredImage(props: { blob: Blob; name: string }) {
  const [viewing, setViewing] = createSignal(false);
  return (
    <>
      <button type="button" class="attachment-chip__open" aria-label={t('attach.view', { name: visibleFileName(props.name) })} onClick={() => setViewing(true)}>
        <ObjectUrlImage blob={props.blob} />
      </button>
      <Show when={viewing()}>
        <ImageViewer blob={props.blob} name={props.name} onClose={() => setViewing(false)} />
      </Show>
    </>
  );
}

/** The image at the size the screen allows, in a dialog named by the file's name, with Close (and Esc, and a tap beside it). */
function ImageViewer(props: { blob: Blob; name: string; onClose(): void }) {
  const titleId = `image-viewer-${createUniqueId()}`;
  const url = URL.createObjectURL(props.blob);
  onCleanup(() => URL.revokeObjectURL(url));
  return (
    <CloseableDialog class="image-viewer" labelledBy={titleId} onClose={props.onClose}>
      <h2 id={titleId} class="image-viewer__name">
        <FileName name={props.name} />
      </h2>
      <img class="image-viewer__image" src={url} alt={visibleFileName(props.name)} />
    </CloseableDialog>
  );
}

function ObjectUrlImage(props: { blob: Blob }) {
  const url = URL.createObjectURL(props.blob);
  onCleanup(() => URL.revokeObjectURL(url));
  // Decorative: the chip's text names the file.
  return <img class="attachment-chip__thumbnail" src={url} alt="" />;
}

function FileGlyph() {
  return (
    <svg class="attachment-chip__glyph" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h6" />
    </svg>
  );
}
