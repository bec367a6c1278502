import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import type { Channel } from '../../lib/api/types.js';
import { sendMessage } from '../../lib/state/actions.js';
import { useSession, useStore } from '../../lib/session.js';
import { displayName, Icon, Menu } from '../../lib/ui/index.js';
import { CommandForm } from '../../apps/CommandForm.js';
import { CommandPicker, filterCommands } from '../../apps/CommandPicker.js';
import { useCommands, type CommandEntry } from '../../apps/command-index.js';
import { FilePreviews } from './FilePreviews.js';
import { PollDialog } from './PollDialog.js';
import { useTypingSignal } from './use-typing.js';
import { Autocomplete } from './Autocomplete.js';
import { applySuggestion, findTrigger, suggest, type Suggestion } from './completion.js';
import { useSendWithRetry, MAX_LENGTH } from './use-send.js';
import { emojiCatalogue, loadEmoji, type EmojiEntry } from '../../lib/emoji/data.js';
import { EmojiPicker } from '../messages/EmojiPicker.js';
import './composer.css';

const MAX_FILES = 10;
/** The counter shows from this many characters on. */
const COUNT_FROM = MAX_LENGTH - 200;

/**
 * The message box: Enter sends, Shift+Enter breaks the line; files by button, paste or drop, with previews;
 * replies; polls; "/" opens the command picker and a picked command turns the box into its option form.
 * `@`, `#` and `:` complete members and roles, channels and emoji with the real mention syntax; Up in an empty box
 * edits your last message; Escape closes a popup, then cancels a reply or an edit.
 */
export function Composer({
  channel,
  placeholder,
  replyTo,
  onCancelReply,
  disabledReason,
  editing,
  onEdit,
}: {
  channel: Channel;
  placeholder: string;
  replyTo: string | null;
  onCancelReply: () => void;
  disabledReason?: string | null;
  /** The message being edited inline, if any; `onEdit(null)` cancels it. */
  editing?: string | null;
  onEdit?: (id: string | null) => void;
}) {
  const { api, store } = useSession();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [command, setCommand] = useState<CommandEntry | null>(null);
  const [pickerIndex, setPickerIndex] = useState(0);
  const [pickerVersion, setPickerVersion] = useState(0);
  const [plus, setPlus] = useState<{ x: number; y: number } | null>(null);
  const [polling, setPolling] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const typing = useTypingSignal(channel.id);
  const reply = useStore((s) => (replyTo ? s.messages.get(channel.id)?.items.find((m) => m.id === replyTo) : undefined));
  const guild = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id) : undefined));
  const me = useStore((s) => s.me);
  const [caret, setCaret] = useState(0);
  /** The text at which Escape closed a popup: it stays closed until the text changes. */
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [emojiList, setEmojiList] = useState<EmojiEntry[] | null>(() => emojiCatalogue()?.list ?? null);
  const [completeIndex, setCompleteIndex] = useState(0);
  const [emojiAt, setEmojiAt] = useState<{ x: number; y: number } | null>(null);
  const sender = useSendWithRetry(channel.id);

  const slash = !command && text.startsWith('/') && !text.includes('\n') && dismissed !== text ? text.slice(1) : null;
  const trigger = !command && slash === null && dismissed !== text ? findTrigger(text, caret) : null;
  const suggestions = useMemo(
    () => (trigger && me ? suggest(trigger, { me, channel, guild, recipients: channel.recipients ?? [], emoji: emojiList }) : []),
    [trigger?.kind, trigger?.query, me, channel, guild, emojiList],
  );
  useEffect(() => {
    if (trigger?.kind === ':' && !emojiList) void loadEmoji().then((c) => setEmojiList(c.list));
  }, [trigger?.kind]);
  useEffect(() => setCompleteIndex(0), [trigger?.kind, trigger?.query]);
  const { commands, loading } = useCommands(channel, pickerVersion);
  const matches = useMemo(() => (slash === null ? [] : filterCommands(commands.chat, slash)), [slash, commands]);
  useEffect(() => {
    if (slash === '') setPickerVersion((v) => v + 1);
  }, [slash === '']);
  useEffect(() => {
    setPickerIndex(0);
  }, [slash]);
  useEffect(() => {
    if (replyTo) input.current?.focus();
  }, [replyTo]);

  const addFiles = (list: FileList | File[] | null) => {
    if (!list) return;
    const added = Array.from(list); // now: the input is cleared right after
    setFiles((f) => [...f, ...added].slice(0, MAX_FILES));
  };
  const send = () =>
    sender.send(
      { text, files, replyTo },
      () => {
        setText('');
        setFiles([]);
        onCancelReply();
      },
      (back) => {
        // The send failed: what was typed comes back, unless something new was typed meanwhile.
        setText((t) => t || back.text);
        setFiles((f) => (f.length ? f : back.files));
      },
    );
  const pick = (e: CommandEntry) => {
    setCommand(e);
    setText('');
  };
  // Where the caret goes once a completed or inserted text is on screen: set as soon as React commits it, before the
  // next key is handled (a caret set a frame later would move back over what was typed meanwhile).
  const caretAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = caretAfterRender.current;
    if (at === null || !input.current) return;
    caretAfterRender.current = null;
    input.current.focus();
    input.current.setSelectionRange(at, at);
  });
  const setTextAt = (next: string, at: number) => {
    // The same text renders nothing: the caret moves now.
    if (next === text) input.current?.setSelectionRange(at, at);
    else caretAfterRender.current = at;
    setText(next);
    setCaret(at);
  };
  const complete = (s: Suggestion) => {
    if (!trigger) return;
    const r = applySuggestion(text, trigger, s);
    setTextAt(r.text, r.caret);
  };
  const insertAtCaret = (piece: string) => {
    const at = input.current?.selectionStart ?? text.length;
    const pad = at > 0 && !/\s$/.test(text.slice(0, at)) ? ' ' : '';
    const next = `${text.slice(0, at)}${pad}${piece} ${text.slice(at)}`;
    setTextAt(next, at + pad.length + piece.length + 1);
  };
  const editLast = () => {
    const items = store.state.messages.get(channel.id)?.items ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const m = items[i];
      if (m.author.id === me?.id && (m.type === 0 || m.type === 19)) return onEdit?.(m.id);
    }
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (trigger && suggestions.length) {
      const n = suggestions.length;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setCompleteIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        complete(suggestions[Math.min(completeIndex, n - 1)]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(text);
        return;
      }
    }
    if (slash !== null && e.key === 'Escape') {
      e.preventDefault();
      setDismissed(text);
      return;
    }
    if (slash !== null && matches.length) {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        setPickerIndex((i) => (i + 1) % matches.length);
        return;
      }
      if (e.key === 'ArrowUp') {
        e.preventDefault();
        setPickerIndex((i) => (i - 1 + matches.length) % matches.length);
        return;
      }
      if (e.key === 'Tab' || e.key === 'Enter') {
        e.preventDefault();
        pick(matches[pickerIndex]);
        return;
      }
    }
    if (e.key === 'Escape') {
      if (replyTo) onCancelReply();
      else if (editing) onEdit?.(null);
    }
    if (e.key === 'ArrowUp' && !e.altKey && !text && !files.length && onEdit) {
      e.preventDefault();
      editLast();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };
  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData.files.length) {
      e.preventDefault();
      addFiles(e.clipboardData.files);
    }
  };
  const onDrop = (e: DragEvent) => {
    if (!e.dataTransfer.files.length) return;
    e.preventDefault();
    addFiles(e.dataTransfer.files);
  };

  if (disabledReason)
    return (
      <div className="composer">
        <div className="composer__box composer__box--disabled">{disabledReason}</div>
      </div>
    );
  return (
    <div className="composer" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      {trigger && suggestions.length ? (
        <Autocomplete trigger={trigger} items={suggestions} selected={completeIndex} onHover={setCompleteIndex} onPick={complete} />
      ) : null}
      {sender.alert ? (
        <div className="composer__alert" role="alert">
          <Icon name="warn" size={16} />
          <span className="grow">{sender.alert.message}</span>
          {sender.alert.retry ? (
            <button type="button" className="btn btn--sm" onClick={() => void send()}>
              Retry
            </button>
          ) : null}
          <button type="button" className="icon-btn" aria-label="Dismiss" onClick={sender.dismiss}>
            <Icon name="x" size={14} />
          </button>
        </div>
      ) : null}
      {slash !== null ? (
        <CommandPicker entries={commands.chat} loading={loading} query={slash} selected={pickerIndex} onHover={setPickerIndex} onPick={pick} />
      ) : null}
      {replyTo ? (
        <div className="composer__reply">
          <span className="grow">
            Replying to <strong>{reply ? displayName(reply.author) : 'a message'}</strong>
          </span>
          <button type="button" className="icon-btn" aria-label="Cancel reply" onClick={onCancelReply}>
            <Icon name="x" size={16} />
          </button>
        </div>
      ) : null}
      {command ? (
        <CommandForm
          entry={command}
          channel={channel}
          onDone={() => {
            setCommand(null);
            setTimeout(() => input.current?.focus(), 0);
          }}
        />
      ) : (
        <div className={replyTo ? 'composer__box composer__box--reply' : 'composer__box'}>
          {files.length ? <FilePreviews files={files} onRemove={(i) => setFiles((f) => f.filter((_, j) => j !== i))} /> : null}
          <div className="composer__row">
            <button
              type="button"
              className="composer__plus"
              aria-label="Upload a file or create a poll"
              title="Upload a file or create a poll"
              onClick={(e) => {
                const r = e.currentTarget.getBoundingClientRect();
                setPlus({ x: r.left, y: r.top - 96 });
              }}
            >
              <Icon name="plus" size={18} />
            </button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              onChange={(e) => {
                addFiles(e.target.files);
                e.target.value = '';
              }}
              aria-label="Attach files"
              data-testid="composer-file"
            />
            <textarea
              ref={input}
              className="composer__input"
              rows={1}
              value={text}
              placeholder={placeholder}
              aria-label={placeholder}
              aria-autocomplete="list"
              aria-controls={trigger && suggestions.length ? 'composer-complete' : undefined}
              aria-activedescendant={trigger && suggestions.length ? `complete-${completeIndex}` : undefined}
              onChange={(e) => {
                setText(e.target.value);
                setCaret(e.target.selectionStart);
                if (e.target.value.length <= MAX_LENGTH) sender.clearTooLong();
                if (e.target.value && !e.target.value.startsWith('/')) typing();
              }}
              onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
              onKeyDown={onKey}
              onPaste={onPaste}
            />
            {text.length >= COUNT_FROM ? (
              <span
                className={text.length > MAX_LENGTH ? 'composer__count composer__count--over' : 'composer__count'}
                aria-label={`${MAX_LENGTH - text.length} characters left`}
                data-testid="composer-count"
              >
                {MAX_LENGTH - text.length}
              </span>
            ) : null}
            <button
              type="button"
              className="icon-btn composer__emoji"
              aria-label="Select emoji"
              title="Select emoji"
              onClick={(e) => {
                const r = e.currentTarget.getBoundingClientRect();
                setEmojiAt({ x: r.right - 360, y: r.top - 428 });
              }}
            >
              <Icon name="smile" size={20} />
            </button>
          </div>
        </div>
      )}
      {plus ? (
        <Menu
          x={plus.x}
          y={plus.y}
          onClose={() => setPlus(null)}
          label="Add"
          items={[
            { label: 'Upload a File', onSelect: () => fileInput.current?.click() },
            ...(channel.guild_id || channel.type === 1 || channel.type === 3 ? [{ label: 'Create Poll', onSelect: () => setPolling(true) }] : []),
          ]}
        />
      ) : null}
      {emojiAt ? (
        <EmojiPicker
          x={emojiAt.x}
          y={emojiAt.y}
          guildId={channel.guild_id}
          onClose={() => setEmojiAt(null)}
          onPick={(_value, piece) => {
            setEmojiAt(null);
            insertAtCaret(piece);
          }}
        />
      ) : null}
      {polling ? <PollDialog onClose={() => setPolling(false)} onCreate={(poll) => void sendMessage(api, store, channel.id, { content: '', poll })} /> : null}
    </div>
  );
}
