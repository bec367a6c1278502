/**
 * What other people say, played through one <audio> element each (Chromium plays remote WebRTC audio only through a
 * media element). The elements live in a hidden container marked with the speaker's user id.
 */
export class AudioOut {
  private readonly root: HTMLDivElement;
  private readonly elements = new Map<string, HTMLAudioElement>();
  private deafened = false;
  constructor(private sinkId = '') {
    this.root = document.createElement('div');
    this.root.hidden = true;
    this.root.dataset.voiceAudio = '';
    document.body.append(this.root);
  }

  play(userId: string, track: MediaStreamTrack): void {
    let el = this.elements.get(userId);
    if (!el) {
      el = document.createElement('audio');
      el.autoplay = true;
      el.dataset.user = userId;
      this.elements.set(userId, el);
      this.root.append(el);
    }
    el.srcObject = new MediaStream([track]);
    el.muted = this.deafened;
    if (this.sinkId) sink(el, this.sinkId);
    void el.play().catch(() => {});
  }

  /** Plays everyone through another speaker ('' for the default one). */
  setOutput(deviceId: string): void {
    this.sinkId = deviceId;
    for (const el of this.elements.values()) sink(el, deviceId);
  }

  remove(userId: string): void {
    this.elements.get(userId)?.remove();
    this.elements.delete(userId);
  }

  setDeafened(on: boolean): void {
    this.deafened = on;
    for (const el of this.elements.values()) el.muted = on;
  }

  setVolume(userId: string, volume: number): void {
    const el = this.elements.get(userId);
    if (el) el.volume = Math.max(0, Math.min(1, volume));
  }

  close(): void {
    for (const el of this.elements.values()) el.srcObject = null;
    this.elements.clear();
    this.root.remove();
  }
}

function sink(el: HTMLAudioElement, deviceId: string): void {
  void (el as HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> }).setSinkId?.(deviceId).catch(() => {});
}
