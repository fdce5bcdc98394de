import { ModelError, type AttachmentContent, type Model, type ModelPart, type ModelRequest } from '../../core/run/model';
import type { AttachmentMeta } from '../../schema/attachments/attachments';

/** The text of the error a run ends with when its history holds an image its model cannot take. */
const IMAGES_NOT_ACCEPTED_TEXT =
  'This model does not accept images, and this conversation holds one. Choose a model profile that accepts images (Settings → "Accepts images"), or edit the message to send it without the image.';

/**
 * A model whose every step is given the files its history holds, read back from storage for that step (nothing is kept
 * in memory between steps; a file still syncing here is waited for a while, see FileArrivals). A history with an image
 * for a model that takes none ends the step before any request, with an error that says so, rather than a provider's
 * refusal.
 */
export function withAttachments(model: Model, options: { acceptsImages: boolean; read(metas: readonly AttachmentMeta[], signal: AbortSignal): Promise<ReadonlyMap<string, AttachmentContent>> }): Model {
  return {
    async *streamStep(request: ModelRequest): AsyncIterable<ModelPart> {
      const metas = request.history.flatMap((message) => message.attachments ?? []);
      if (metas.length === 0) {
        yield* model.streamStep(request);
        return;
      }
      if (!options.acceptsImages && metas.some((meta) => meta.kind === 'image')) {
        throw new ModelError('images_not_accepted', IMAGES_NOT_ACCEPTED_TEXT);
      }
      const attachments = await options.read(metas, request.signal);
      request.signal.throwIfAborted();
      // Said on the reply too, so the person knows why it may not speak of the file (worded by the UI).
      if ([...attachments.values()].some((content) => content.kind === 'syncing')) yield { type: 'notice', notice: { key: 'files_not_here' } };
      yield* model.streamStep({ ...request, attachments });
    },
  };
}
