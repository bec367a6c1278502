import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
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

const MAX_FILES = 10;

/**
 * The message box: Enter sends, Shift+Enter breaks the line; files by button, paste or drop, with previews;
 * replies; polls; "/" opens the command picker and a picked command turns the box into its option form.
 */
export function Composer({
  channel,
  placeholder,
  replyTo,
  onCancelReply,
  disabledReason,
}: {
  channel: Channel;
  placeholder: string;
  replyTo: string | null;
  onCancelReply: () => void;
  disabledReason?: string | null;
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

  const slash = !command && text.startsWith('/') && !text.includes('\n') ? text.slice(1) : null;
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
  const send = async () => {
    const content = text.trim();
    if (!content && !files.length) return;
    const out = { content, files, replyTo };
    setText('');
    setFiles([]);
    onCancelReply();
    await sendMessage(api, store, channel.id, out);
  };
  const pick = (e: CommandEntry) => {
    setCommand(e);
    setText('');
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
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
    if (e.key === 'Escape' && replyTo) onCancelReply();
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
              onChange={(e) => {
                setText(e.target.value);
                if (e.target.value && !e.target.value.startsWith('/')) typing();
              }}
              onKeyDown={onKey}
              onPaste={onPaste}
            />
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
      {polling ? <PollDialog onClose={() => setPolling(false)} onCreate={(poll) => void sendMessage(api, store, channel.id, { content: '', poll })} /> : null}
    </div>
  );
}
