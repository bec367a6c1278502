import { Icon } from '../../lib/ui/index.js';
import { plural } from '../../lib/plural.js';
import { channelIcon, channelTree } from '../../chat/sidebar/channel-tree.js';
import { ChannelEditor } from './ChannelEditor.js';
import type { SectionProps } from './section-props.js';
import { useOpenItem } from './use-open-item.js';

/** Every channel and category of the server, in sidebar order; opening one edits it and its permission overwrites. */
export function Channels(props: SectionProps) {
  const { guild } = props;
  const [open, setOpen] = useOpenItem();
  const channel = open ? guild.channels.get(open) : undefined;
  if (channel) return <ChannelEditor {...props} channel={channel} onBack={() => setOpen(null)} />;
  const tree = channelTree(guild);
  return (
    <div>
      <p className="muted">Open a channel to rename it, set its topic and slowmode, or change who may see and use it.</p>
      <ul className="ss-list" aria-label="Channels">
        {tree.flatMap(({ category, channels }) => [
          ...(category
            ? [
                <li key={category.id} className="ss-row ss-row--category">
                  <button type="button" className="ss-row__main" onClick={() => setOpen(category.id)}>
                    <span className="ellipsis">{category.name}</span>
                    <span className="muted ss-row__note">Category</span>
                  </button>
                </li>,
              ]
            : []),
          ...channels.map(({ channel: c }) => (
            <li key={c.id} className="ss-row">
              <button type="button" className="ss-row__main" onClick={() => setOpen(c.id)}>
                <Icon name={channelIcon(c.type)} size={18} />
                <span className="ellipsis">{c.name}</span>
                {c.permission_overwrites?.length ? (
                  <span className="muted ss-row__note">{plural(c.permission_overwrites.length, 'overwrite', 'overwrites')}</span>
                ) : null}
              </button>
            </li>
          )),
        ])}
      </ul>
    </div>
  );
}
