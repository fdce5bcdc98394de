import { createResource, For, onCleanup, Show, type JSX } from 'solid-js';
import type { AttachmentMeta } from '../../../schema/attachments';
import type { AttachmentRefusal } from '../../../schema/attachment-kinds';
import type { WorkerClient } from '../../channel';
import { fileSize } from '../../file-size';
import { t, type MessageKey } from '../../i18n/i18n';
import { visibleFileName } from '../../../schema/file-name';
import type { PendingAttachment } from '../../attachment-drafts';
import './attachments.css';

/** The composer's files: why those offered last were refused (in words), and the chips of those waiting to be sent. */
export function ComposerAttachments(props: { attachments: readonly PendingAttachment[]; refusals: readonly AttachmentRefusal[]; onRemove(key: string): void }) {
  return (
    <>
      <Show when={props.refusals.length > 0}>
        <div class="attachment-refusals" role="alert">
          <For each={props.refusals}>{(refusal) => <p>{refusalText(refusal)}</p>}</For>
        </div>
      </Show>
      <Show when={props.attachments.length > 0}>
        <AttachmentChips attachments={props.attachments} onRemove={(key) => props.onRemove(key)} />
      </Show>
    </>
  );
}

/** Why a file was not attached, in the UI's language, its name isolated from the sentence (see FileName). */
function refusalText(refusal: AttachmentRefusal): JSX.Element {
  switch (refusal.reason) {
    case 'unsupported_type':
      return withFileName('attach.refused.unsupported_type', refusal.name);
    case 'too_large':
      return withFileName('attach.refused.too_large', refusal.name, { size: fileSize(refusal.size), limit: fileSize(refusal.limit) });
    case 'too_many':
      return t('attach.refused.too_many', { limit: refusal.limit });
    case 'images_not_accepted':
      return withFileName('attach.refused.images_not_accepted', refusal.name);
  }
}

const NAME_SLOT = '\u0000name\u0000';

/** The sentence of `key` with the file's name in its `{name}` place as a FileName element, not as text. */
function withFileName(key: MessageKey, name: string, params: Readonly<Record<string, string | number>> = {}): JSX.Element {
  const [before = '', ...after] = t(key, { ...params, name: NAME_SLOT }).split(NAME_SLOT);
  return (
    <>
      {before}
      <FileName name={name} />
      {after.join(visibleFileName(name))}
    </>
  );
}

/**
 * A file's name, wherever it is shown: isolated from the text around it (`<bdi>`), its bidi controls shown as their code
 * points, so "report\u202Etxt.pdf" reads "report⟨U+202E⟩txt.pdf" and not "reportfdp.txt".
 */
export function FileName(props: { name: string; class?: string }) {
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

/**
 * The files sent with a message, under it: images as thumbnails read from storage when shown (the worker sends the
 * Blob; the object URL is revoked when the message leaves the page), other files as chips with name and size.
 */
export function MessageAttachments(props: { attachments: readonly AttachmentMeta[]; client: Pick<WorkerClient, 'send'> }) {
  return (
    <ul class="attachment-chips attachment-chips--sent" aria-label={t('attach.sent')}>
      <For each={props.attachments}>
        {(attachment) => (
          <li class="attachment-chip" data-kind={attachment.kind}>
            <Show when={attachment.kind === 'image'} fallback={<FileGlyph />}>
              <StoredImage id={attachment.id} client={props.client} />
            </Show>
            <span class="attachment-chip__text">
              <FileName class="attachment-chip__name" name={attachment.name} />
              <span class="visually-hidden">, </span>
              <span class="attachment-chip__size">{fileSize(attachment.size)}</span>
            </span>
          </li>
        )}
      </For>
    </ul>
  );
}

function StoredImage(props: { id: string; client: Pick<WorkerClient, 'send'> }) {
  // A file no longer stored (its message imported without it, say) shows the file glyph, not a broken image.
  const [blob] = createResource(() => props.id, (id) => props.client.send({ type: 'attachment.read', attachmentId: id }).then((read) => read.blob, () => undefined));
  return (
    <Show when={blob()} fallback={<FileGlyph />}>
      {(loaded) => <ObjectUrlImage blob={loaded()} />}
    </Show>
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
