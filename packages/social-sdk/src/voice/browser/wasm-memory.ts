/**
 * davey's WebAssembly build targets wasm32-wasip1-threads, so it imports a *shared* memory, and browsers create shared
 * memory only on cross-origin isolated pages (COOP and COEP headers, which would also cut the app off from embeds and
 * Activities that do not opt in). DAVE runs on one thread here and the module spawns none (it imports no
 * `thread-spawn`), so its memory import is declared unshared instead: atomic instructions are valid on unshared
 * memory, and a wait that would block cannot happen without a second thread. Returns the patched bytes and the
 * memory's minimum size in pages.
 */
export function unshareMemoryImport(bytes: Uint8Array<ArrayBuffer>): { bytes: Uint8Array<ArrayBuffer>; minPages: number; maxPages: number | null } {
  const out = bytes.slice();
  let p = 8; // magic and version
  const leb = () => {
    let r = 0;
    let shift = 0;
    let b: number;
    do {
      b = out[p++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return r;
  };
  const name = () => {
    const n = leb();
    const s = new TextDecoder().decode(out.subarray(p, p + n));
    p += n;
    return s;
  };
  while (p < out.length) {
    const id = out[p++];
    const size = leb();
    const end = p + size;
    if (id === 2) {
      const count = leb();
      for (let i = 0; i < count; i++) {
        const module = name();
        const field = name();
        const kind = out[p++];
        if (kind === 0)
          leb(); // function: type index
        else if (kind === 1) {
          p++; // table: element type, then limits
          const flags = out[p++];
          leb();
          if (flags & 1) leb();
        } else if (kind === 3)
          p += 2; // global: type and mutability
        else if (kind === 2) {
          const at = p;
          const flags = out[p++];
          const minPages = leb();
          const maxPages = flags & 1 ? leb() : null;
          if (module === 'env' && field === 'memory') {
            out[at] = flags & ~2;
            return { bytes: out, minPages, maxPages };
          }
        } else throw new Error(`unknown import kind ${kind}`);
      }
    }
    p = end;
  }
  throw new Error('the DAVE module imports no memory');
}
