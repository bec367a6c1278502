import { useEffect, useMemo, useRef, useState } from 'react';
import { useSession } from '../lib/session.js';
import { onDispatch } from '../lib/state/dispatch-taps.js';
import { Button, Loading, toast } from '../lib/ui/index.js';
import { ActivityParent } from './parent/parent.js';
import type { LaunchContext, WireUser } from './parent/host.js';
import { browserHost } from './browser-host.js';
import { useActivityDialogs, type DialogApp } from './dialogs.js';
import { instances, userIdsOf, type InstanceInfo } from './instances.js';
import { launchExtras } from './launch.js';
import { knownUser } from './users.js';

/** The bridge page on each app's proxy origin (server: src/activities/bridge-page.ts). */
const BRIDGE_PATH = '/.well-known/accord/activity-bridge.html';
const ALLOW = 'autoplay; clipboard-write; encrypted-media; fullscreen; gamepad; picture-in-picture; web-share';
/** The Activity may not navigate the client or escape its frame; popups (external links) still work. */
const SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-pointer-lock allow-downloads';

export type FrameMode = 'inline' | 'popout';

/** Test hook: every message the parent sends, when the page opts in (`window.__accordActivityLog = []`). */
declare global {
  interface Window {
    __accordActivityLog?: unknown[];
  }
}

/**
 * One running Activity: frames the bridge page of the app's origin (inline, or in a pop-out window), checks every
 * message's source and origin, and hands the SDK's messages to the parent protocol. Gateway events become SDK events.
 */
export function ActivityFrame({
  inst,
  app,
  mode,
  channelLabel,
  onPopoutClosed,
  onFrameClosed,
}: {
  inst: InstanceInfo;
  app: DialogApp & { description: string };
  mode: FrameMode;
  channelLabel: string;
  onPopoutClosed(): void;
  /** The Activity closed itself (sdk.close) or failed its handshake. */
  onFrameClosed(code: number, message?: string): void;
}) {
  const session = useSession();
  const [target, setTarget] = useState<{ origin: string; ticket: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const iframe = useRef<HTMLIFrameElement>(null);
  const popup = useRef<Window | null>(null);
  const parentRef = useRef<ActivityParent | null>(null);
  const orientationLock = useRef(1);
  const dialogs = useActivityDialogs(app, channelLabel);
  const uiRef = useRef(dialogs.ui);
  uiRef.current = dialogs.ui;
  const appRef = useRef(app);
  appRef.current = app;
  const frameId = useMemo(() => crypto.randomUUID(), [mode, inst.instance_id]);
  const extras = useMemo(() => launchExtras(inst.application_id, inst.location.channel_id), [inst.application_id, inst.location.channel_id]);

  useEffect(() => {
    let cancelled = false;
    session.api.http
      .post<{ ticket: string; origin: string }>(`/applications/${inst.application_id}/activity-instances/${inst.instance_id}/proxy-ticket`)
      .then((r) => !cancelled && setTarget(r))
      .catch((err) => !cancelled && setFailed(err?.readable ?? 'The Activity could not be started.'));
    return () => {
      cancelled = true;
    };
  }, [inst.application_id, inst.instance_id]);

  const launch: LaunchContext = useMemo(
    () => ({
      applicationId: inst.application_id,
      instanceId: inst.instance_id,
      launchId: inst.launch_id,
      channelId: inst.location.channel_id,
      guildId: inst.location.guild_id ?? null,
      locationId: inst.location.id,
      frameId,
      platform: 'desktop',
      customId: extras.customId,
      referrerId: extras.referrerId,
    }),
    [inst.instance_id, frameId, extras],
  );

  const src = useMemo(() => {
    if (!target) return null;
    const q = new URLSearchParams({ frame_id: frameId, instance_id: inst.instance_id, platform: 'desktop' });
    if (inst.location.guild_id) q.set('guild_id', inst.location.guild_id);
    q.set('channel_id', inst.location.channel_id);
    q.set('location_id', inst.location.id);
    q.set('launch_id', inst.launch_id);
    if (extras.customId) q.set('custom_id', extras.customId);
    if (extras.referrerId) q.set('referrer_id', extras.referrerId);
    q.set('accord_ticket', target.ticket);
    if (mode === 'popout') q.set('accord_popout', '1');
    return `${target.origin}${BRIDGE_PATH}?${q.toString()}`;
  }, [target, frameId, mode]);

  // The protocol: one parent per frame, messages checked for source (our frame or pop-out) and origin (the app's).
  useEffect(() => {
    if (!src || !target) return;
    const frameWindow = () => (mode === 'popout' ? popup.current : (iframe.current?.contentWindow ?? null));
    const post = (m: unknown) => frameWindow()?.postMessage(m, target.origin);
    const host = browserHost({
      session,
      launch,
      application: () => appRef.current,
      ui: {
        authorize: (r) => uiRef.current.authorize(r),
        confirmExternalLink: (u) => uiRef.current.confirmExternalLink(u),
        shareLink: (r) => uiRef.current.shareLink(r),
        showInvite: (u) => uiRef.current.showInvite(u),
        confirmPurchase: (s) => uiRef.current.confirmPurchase(s),
        pickImage: () => uiRef.current.pickImage(),
        shareMoment: (u) => uiRef.current.shareMoment(u),
      },
      toBridge: post,
      frameSize: () => {
        const el = iframe.current;
        return mode === 'popout' && popup.current
          ? { width: popup.current.innerWidth, height: popup.current.innerHeight }
          : { width: el?.clientWidth ?? 16, height: el?.clientHeight ?? 9 };
      },
      layoutMode: () => 0,
      onOrientationLock: (l) => {
        orientationLock.current = l.lock_state;
      },
    });
    const parent = new ActivityParent({
      host,
      post: (m) => {
        window.__accordActivityLog?.push(m);
        post(m);
      },
      onClose: (code, message) => onFrameClosed(code, message),
    });
    parentRef.current = parent;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== target.origin || !event.source || event.source !== frameWindow()) return;
      if (Array.isArray(event.data)) parent.receive(event.data);
      else if (event.data?.accord === 'proxy-ticket-stored' && !event.data.ok) console.warn("The Activity's proxy ticket was not stored");
    };
    window.addEventListener('message', onMessage);
    let poll: ReturnType<typeof setInterval> | null = null;
    if (mode === 'popout') {
      popup.current = window.open(src, `accord-activity-${inst.instance_id}`, 'popup,width=1024,height=640');
      if (!popup.current) {
        toast('The pop-out window was blocked', true);
        onPopoutClosed();
      } else {
        poll = setInterval(() => {
          if (popup.current?.closed) {
            popup.current = null;
            onPopoutClosed();
          }
        }, 400);
      }
    }
    return () => {
      window.removeEventListener('message', onMessage);
      if (poll) clearInterval(poll);
      parent.close();
      parentRef.current = null;
      if (popup.current && !popup.current.closed) popup.current.close();
      popup.current = null;
    };
  }, [src]);

  // Participants joining and leaving.
  const participantKey = userIdsOf(inst).join(',');
  useEffect(() => {
    const parent = parentRef.current;
    if (!parent) return;
    const users = userIdsOf(instances.get(inst.instance_id))
      .map((id) => knownUser(session.store, id))
      .filter(Boolean) as unknown as WireUser[];
    parent.participantsChanged(users);
  }, [participantKey]);

  // Gateway events the SDK has events for.
  useEffect(
    () =>
      onDispatch((t, d) => {
        const parent = parentRef.current;
        const me = session.store.state.me;
        if (!parent || !me) return;
        if (t === 'VOICE_STATE_UPDATE' && d?.channel_id) {
          const user = d.member?.user ?? knownUser(session.store, d.user_id);
          if (user)
            parent.voiceStateChanged(d.channel_id, {
              user,
              nick: d.member?.nick ?? null,
              mute: !!d.mute,
              deaf: !!d.deaf,
              self_mute: !!d.self_mute,
              self_deaf: !!d.self_deaf,
              suppress: !!d.suppress,
            });
        } else if (t === 'USER_UPDATE' && d?.id === me.id) {
          parent.currentUserChanged({ ...me, ...d });
        } else if (t === 'GUILD_MEMBER_UPDATE' && d?.user?.id === me.id) {
          parent.memberChanged({ user_id: me.id, guild_id: d.guild_id, nick: d.nick, avatar: d.avatar });
        } else if ((t === 'RELATIONSHIP_ADD' || t === 'RELATIONSHIP_UPDATE') && d?.user) {
          parent.relationshipChanged({ type: d.type, user: d.user });
        } else if (t === 'ENTITLEMENT_CREATE' && d?.user_id === me.id) {
          parent.entitlementCreated(d);
        }
      }),
    [],
  );

  // The frame's orientation follows its shape.
  useEffect(() => {
    const el = iframe.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let last = '';
    const ro = new ResizeObserver(() => {
      const o = el.clientHeight > el.clientWidth ? 'portrait' : 'landscape';
      if (o !== last) {
        last = o;
        parentRef.current?.orientationChanged();
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [src]);

  if (failed) {
    return (
      <div className="act-frame act-frame--message">
        <div className="act-frame__title">{app.name} could not start</div>
        <div className="muted">{failed}</div>
      </div>
    );
  }
  if (!src)
    return (
      <div className="act-frame act-frame--message">
        <Loading label={`Starting ${app.name}…`} />
      </div>
    );
  return (
    <>
      {mode === 'inline' ? (
        <iframe ref={iframe} className="act-frame" src={src} allow={ALLOW} sandbox={SANDBOX} title={app.name} />
      ) : (
        <div className="act-frame act-frame--message">
          <div className="act-frame__title">{app.name} is open in another window</div>
          <Button
            variant="secondary"
            onClick={() => {
              popup.current?.close();
            }}
          >
            Bring it back
          </Button>
        </div>
      )}
      {dialogs.element}
    </>
  );
}
