import { lazy, Show, Suspense, useContext, type Component } from 'solid-js';
import type { Block, BlockOf, RequestBlock } from '../../schema/messages/blocks';
import { approvalOf } from '../../schema/messages/approvals';
import type { Message } from '../../schema/records';
import { AppContext } from '../state/app-context';
import type { WorkerClient } from '../state/channel';
import { errorWordsModule } from '../common/lazy-error-words';
import { t, withStrings } from '../i18n/i18n';
import { ErrorDetail } from '../common/ErrorDetail';
import { LazyMarkdown } from '../markdown/LazyMarkdown';
import { LongText } from './LongText';
import type { MarkdownKit } from '../chat/markdown-kit';
import { requestViewOf } from '../requests/request-views';
import { QueuedToolCall } from '../requests/QueuedToolCall';

// A tool call's card loads when a message shows a call that runs, ran or waits for approval: a reply of text needs
// none, and neither does a question's call, which becomes its form before it runs (QueuedToolCall until then).
const ToolCallCard = lazy(() => withStrings('views', () => import('../requests/ToolCallCard')).then((module) => ({ default: module.ToolCallCard })));

interface BlockProps<B extends Block> {
  block: B;
  message: Message;
  client: WorkerClient;
}

/**
 * How the page shows one kind of block: in its message, and in the Markdown export (`markdown`, given the export's
 * helpers, so none of the export's code loads with the page). See docs/architecture.md, "How to add…".
 */
interface BlockView<B extends Block> {
  View: Component<BlockProps<B>>;
  markdown(block: B, kit: MarkdownKit): string;
}

/**
 * The view of each kind of block. The table is complete (the compiler asks for a new kind's entry); a kind this code
 * does not know (a newer Parley wrote it) shows as plain text instead of nothing.
 */
const BLOCK_VIEWS: { readonly [T in Block['type']]: BlockView<BlockOf<T>> } = {
  text: {
    View: (props) =>
      props.message.role === 'assistant' ? (
        <LazyMarkdown text={props.block.text} total={props.block.clippedFrom} />
      ) : (
        <LongText class="message-text" text={props.block.text} total={props.block.clippedFrom} />
      ),
    markdown: (block, kit) => kit.prose(block.text),
  },
  reasoning: {
    View: (props) => (
      <details class="reasoning">
        <summary>{t('message.reasoning')}</summary>
        <LongText class="reasoning-text" text={props.block.text} total={props.block.clippedFrom} />
      </details>
    ),
    markdown: (block, kit) => kit.quote(`**${t('message.reasoning')}**\n\n${kit.prose(block.text)}`),
  },
  tool_call: {
    View: (props) => {
      // Optional: a message rendered outside the app (a test) has no live progress to show.
      const app = useContext(AppContext);
      const approval = () => approvalOf(props.message.blocks, props.block);
      const queued = () => props.block.status === 'pending' && !approval();
      return (
        <Show when={!queued()} fallback={<QueuedToolCall block={props.block} />}>
          {/* While the card's code loads, the call shows as it did: no jump, and nothing blank. */}
          <Suspense fallback={<QueuedToolCall block={props.block} />}>
            <ToolCallCard block={props.block} approval={approval()} conversationId={props.message.conversationId} messageId={props.message.id} client={props.client} progress={app?.state.toolProgress[props.block.toolCallId]} thisDevice={app?.state.sync?.device.id} />
          </Suspense>
        </Show>
      );
    },
    markdown: (block, kit) => [`**${block.toolName}**`, kit.fence(JSON.stringify(block.args ?? {}, null, 2), 'json'), ...(block.result !== undefined ? [kit.fence(block.result)] : [])].join('\n\n'),
  },
  request: { View: RequestInPlace, markdown: (block, kit) => requestViewOf(block).markdown(block, kit) },
  error: {
    // Shown whole once an error's words are here (they load with the first error shown: a first reply needs none).
    View: (props) => (
      <Show when={errorWordsModule()}>
        {(module) => {
          const words = () => module().describeRunError(props.block);
          return (
            <div class="error-block" role="alert">
              {words().text}
              {/* An imported error block's message has no length bound. */}
              <ErrorDetail detail={words().detail} text={(detail) => <LongText class="error-details__text" text={detail} />} />
            </div>
          );
        }}
      </Show>
    ),
    markdown: (block, kit) => kit.quote(block.message),
  },
};

/** The view of `block`'s kind; undefined for a kind this version does not know. */
function blockViewOf<B extends Block>(block: B): BlockView<B> | undefined {
  return BLOCK_VIEWS[block.type] as unknown as BlockView<B> | undefined;
}

/** One block as its kind shows it (see BLOCK_VIEWS). */
export function BlockView(props: BlockProps<Block>) {
  const view = blockViewOf(props.block);
  return view ? <view.View block={props.block} message={props.message} client={props.client} /> : <UnknownBlock block={props.block} />;
}

/** One block in the Markdown export; '' for a kind this version does not know. */
export function blockMarkdown(block: Block, kit: MarkdownKit): string {
  return blockViewOf(block)?.markdown(block, kit) ?? '';
}

/** A request in place: its kind's form (a question's, a server's); none for an approval, which its call's card shows. */
function RequestInPlace(props: BlockProps<RequestBlock>) {
  const app = useContext(AppContext);
  const Form = requestViewOf(props.block).form;
  return Form ? <Form block={props.block} conversationId={props.message.conversationId} messageId={props.message.id} client={props.client} thisDevice={app?.state.sync?.device.id} /> : null;
}

/** A block kind this version does not know: say so, and show what it holds as text (never as markup). */
function UnknownBlock(props: { block: Block }) {
  const kind = () => String((props.block as { type?: unknown }).type ?? 'unknown');
  const text = () => {
    const value = props.block as { text?: unknown; message?: unknown };
    if (typeof value.text === 'string') return value.text;
    if (typeof value.message === 'string') return value.message;
    return '';
  };
  return (
    <div class="unknown-block" data-kind={kind()}>
      <p class="unknown-block__note">{t('block.unknown', { kind: kind() })}</p>
      <Show when={text()}>{(shown) => <LongText class="message-text" text={shown()} />}</Show>
    </div>
  );
}
