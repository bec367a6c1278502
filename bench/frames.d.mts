export function seqOf(frame: Buffer): number;
export function opOf(frame: Buffer): number;
export function markerOf(frame: Buffer): number;
