import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { isEmojiOnly, parseMarkdown, type MdNode } from './parse.js';
import { formatTimestamp } from './timestamp.js';
import { Twemoji } from '../emoji/Emoji.js';

/** How mentions resolve to names: the chat provides it from its store. */
export interface MentionResolver {
  user(id: string): string | null;
  channel(id: string): string | null;
  role(id: string): { name: string; color: number } | null;
  openChannel?(id: string): void;
  openUser?(id: string, el: HTMLElement): void;
}

const noop: MentionResolver = { user: () => null, channel: () => null, role: () => null };
export const MentionContext = createContext<MentionResolver>(noop);

export function Markdown({ text, className }: { text: string; className?: string }) {
  const tree = useMemo(() => parseMarkdown(text), [text]);
  const jumbo = useMemo(() => isEmojiOnly(tree), [tree]);
  const resolve = useContext(MentionContext);
  return <div className={[className, 'md', jumbo && 'md--jumbo'].filter(Boolean).join(' ')}>{renderNodes(tree, resolve)}</div>;
}

/** Nodes drawn as blocks: the line break the parser keeps after one would add an empty line. */
const BLOCKS = new Set(['codeBlock', 'blockQuote', 'heading', 'subtext', 'list', 'lists']);

function renderNodes(nodes: MdNode[] | string | undefined, r: MentionResolver): ReactNode {
  if (nodes === undefined) return null;
  if (typeof nodes === 'string') return nodes;
  return nodes.map((n, i) => (n.type === 'br' && i > 0 && BLOCKS.has(nodes[i - 1].type) ? null : renderNode(n, i, r)));
}

function safeHref(url: unknown): string | null {
  try {
    const u = new URL(String(url));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function renderNode(n: MdNode, key: number, r: MentionResolver): ReactNode {
  const kids = () => renderNodes(n.content as MdNode[] | string, r);
  switch (n.type) {
    case 'text':
      return n.content as string;
    case 'br':
      return <br key={key} />;
    case 'strong':
      return <strong key={key}>{kids()}</strong>;
    case 'em':
      return <em key={key}>{kids()}</em>;
    case 'underline':
      return <u key={key}>{kids()}</u>;
    case 'strikethrough':
      return <s key={key}>{kids()}</s>;
    case 'inlineCode':
      return (
        <code key={key} className="md__code">
          {n.content as string}
        </code>
      );
    case 'codeBlock':
      return (
        <pre key={key} className="md__pre">
          <code data-lang={String(n.lang ?? '') || undefined}>{n.content as string}</code>
        </pre>
      );
    case 'blockQuote':
      return (
        <blockquote key={key} className="md__quote">
          {kids()}
        </blockquote>
      );
    case 'spoiler':
      return <Spoiler key={key}>{kids()}</Spoiler>;
    case 'heading': {
      const level = Math.min(3, Math.max(1, Number(n.level) || 1));
      const H = `h${level}` as 'h1' | 'h2' | 'h3';
      return (
        <H key={key} className="md__h">
          {kids()}
        </H>
      );
    }
    case 'list': {
      const items = (n.items as MdNode[][]).map((item, i) => <li key={i}>{renderNodes(item, r)}</li>);
      return n.ordered ? (
        <ol key={key} className="md__list" start={Number(n.start)}>
          {items}
        </ol>
      ) : (
        <ul key={key} className="md__list">
          {items}
        </ul>
      );
    }
    case 'lists':
      return <div key={key}>{kids()}</div>;
    case 'subtext':
      return (
        <small key={key} className="md__subtext">
          {kids()}
        </small>
      );
    case 'url':
    case 'autolink':
    case 'link': {
      const href = safeHref(n.target);
      if (!href) return <span key={key}>{kids()}</span>;
      return (
        <a key={key} href={href} target="_blank" rel="noreferrer noopener" title={n.type === 'link' ? href : undefined}>
          {kids()}
        </a>
      );
    }
    case 'user': {
      const id = String(n.id);
      return (
        <span key={key} className="mention" role="button" tabIndex={0} onClick={(e) => r.openUser?.(id, e.currentTarget)}>
          @{r.user(id) ?? 'unknown-user'}
        </span>
      );
    }
    case 'channel': {
      const id = String(n.id);
      const name = r.channel(id);
      return (
        <span key={key} className="mention" role="link" tabIndex={0} onClick={() => r.openChannel?.(id)}>
          #{name ?? 'unknown'}
        </span>
      );
    }
    case 'role': {
      const role = r.role(String(n.id));
      const color = role?.color ? `#${role.color.toString(16).padStart(6, '0')}` : undefined;
      return (
        <span key={key} className="mention" style={color ? { color, background: `${color}1a` } : undefined}>
          @{role?.name ?? 'deleted-role'}
        </span>
      );
    }
    case 'everyone':
      return (
        <span key={key} className="mention">
          @everyone
        </span>
      );
    case 'here':
      return (
        <span key={key} className="mention">
          @here
        </span>
      );
    case 'emoji': {
      const ext = n.animated ? 'gif' : 'webp';
      return <img key={key} className="emoji" src={`/emojis/${n.id}.${ext}?size=48`} alt={`:${n.name}:`} title={`:${n.name}:`} draggable={false} />;
    }
    case 'twemoji':
      return <Twemoji key={key} emoji={String(n.name)} />;
    case 'timestamp': {
      const secs = Number(n.timestamp);
      return (
        <time key={key} className="md__time" dateTime={new Date(secs * 1000).toISOString()} title={formatTimestamp(secs, 'F')}>
          {formatTimestamp(secs, String(n.format ?? 'f'))}
        </time>
      );
    }
    case 'slashCommand':
      return (
        <span key={key} className="mention">
          /{String(n.fullName ?? n.name)}
        </span>
      );
    case 'guildNavigation':
      return (
        <span key={key} className="mention">
          {String(n.navigation ?? 'server')}
        </span>
      );
    default:
      return Array.isArray(n.content) ? <span key={key}>{kids()}</span> : typeof n.content === 'string' ? n.content : null;
  }
}

function Spoiler({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  return (
    <span
      className={shown ? 'md__spoiler md__spoiler--shown' : 'md__spoiler'}
      role="button"
      tabIndex={0}
      aria-label={shown ? undefined : 'Spoiler'}
      onClick={() => setShown(true)}
      onKeyDown={(e) => e.key === 'Enter' && setShown(true)}
    >
      <span aria-hidden={!shown}>{children}</span>
    </span>
  );
}
