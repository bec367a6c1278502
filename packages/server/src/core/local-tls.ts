import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * TLS material for the voice gateway and, with `--tls`, the API port. Without configured files the server makes its
 * own small CA (kept in the data dir, so trusting it once is enough) and a leaf certificate per listener for its host
 * names, signed with ECDSA P-256. Node has no X.509 writer: the few DER structures needed are encoded below.
 */
export interface LocalTls {
  cert: string;
  key: string;
  /** The CA to trust (NODE_EXTRA_CA_CERTS), when the certificate was generated here. */
  caPath: string | null;
  generated: boolean;
}

// ---- DER ------------------------------------------------------------------------------------------------------------

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
const set = (...parts: Buffer[]) => tlv(0x31, ...parts);
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);

function int(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0 && !(b[i + 1] & 0x80)) i++;
  const v = b.subarray(i);
  return tlv(0x02, v[0] & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const groups: number[] = [];
    let v = n;
    do {
      groups.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < groups.length - 1; i++) groups[i] |= 0x80;
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2) + 'Z')) : tlv(0x18, Buffer.from(iso + 'Z'));
}

const OID = {
  ecdsaSha256: '1.2.840.10045.4.3.2',
  cn: '2.5.4.3',
  org: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  san: '2.5.29.17',
  skid: '2.5.29.14',
  akid: '2.5.29.35',
};

const name = (cn: string) => seq(set(seq(oid(OID.org), utf8('Accord'))), set(seq(oid(OID.cn), utf8(cn))));
const ext = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

function keyId(pub: crypto.KeyObject): Buffer {
  const spki = pub.export({ type: 'spki', format: 'der' });
  return crypto
    .createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
}

interface CertSpec {
  subject: string;
  issuer: string;
  publicKey: crypto.KeyObject;
  signer: crypto.KeyObject;
  issuerKeyId: Buffer;
  ca: boolean;
  hosts: string[];
  days: number;
}

/** A DER X.509 v3 certificate, signed with ECDSA-SHA256. */
export function buildCertificate(spec: CertSpec): Buffer {
  const now = Date.now(); // real wall time on purpose: TLS peers check validity against their own clocks
  const serial = crypto.randomBytes(16);
  serial[0] &= 0x7f;
  const sigAlg = seq(oid(OID.ecdsaSha256));
  const exts = [
    ext(OID.basicConstraints, true, spec.ca ? seq(bool(true)) : seq()),
    // CA: digitalSignature | keyCertSign | cRLSign (0x86, 1 unused bit); leaf: digitalSignature (0x80, 7 unused bits)
    ext(OID.keyUsage, true, spec.ca ? bits(Buffer.from([0x86]), 1) : bits(Buffer.from([0x80]), 7)),
    ext(OID.skid, false, octets(keyId(spec.publicKey))),
    ext(OID.akid, false, seq(tlv(0x80, spec.issuerKeyId))),
  ];
  if (!spec.ca) {
    exts.push(ext(OID.extKeyUsage, false, seq(oid(OID.serverAuth))));
    const names = spec.hosts.map((h) => {
      if (net.isIPv4(h)) return tlv(0x87, Buffer.from(h.split('.').map(Number)));
      if (net.isIPv6(h)) return tlv(0x87, ipv6Bytes(h));
      return tlv(0x82, Buffer.from(h, 'ascii'));
    });
    exts.push(ext(OID.san, false, seq(...names)));
  }
  const tbs = seq(
    explicit(0, int(Buffer.from([2]))),
    int(serial),
    sigAlg,
    name(spec.issuer),
    seq(time(new Date(now - 86400_000)), time(new Date(now + spec.days * 86400_000))),
    name(spec.subject),
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...exts)),
  );
  const sig = crypto.sign('sha256', tbs, { key: spec.signer, dsaEncoding: 'der' });
  return seq(tbs, sigAlg, bits(sig));
}

function ipv6Bytes(ip: string): Buffer {
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g || '0', 16), i * 2));
  return out;
}

const pem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

/** Where the local CA lives; the name predates the API's use of it, and clients already trust this path. */
export const localCaPath = (dataDir: string) => path.join(dataDir, 'voice-tls', 'ca.pem');
const NEW_CA_NAME = 'Accord local CA';

/**
 * A listener's certificate: the configured files (`flags` names them in errors), or a leaf for `hosts` signed by the
 * local CA in `<dir>/voice-tls`, both generated there. The CA survives restarts; a leaf is re-issued when its host
 * list changes. `leaf` names the listener's files: the voice gateway's are cert.pem/key.pem (the first ones), the
 * API's api-cert.pem/api-key.pem.
 */
export function loadLocalTls(opts: {
  certPath?: string;
  keyPath?: string;
  dir: string;
  hosts: string[];
  leaf: 'voice' | 'api';
  flags: [string, string];
}): LocalTls {
  if (opts.certPath || opts.keyPath) {
    if (!opts.certPath || !opts.keyPath) throw new Error(`TLS needs both ${opts.flags[0]} and ${opts.flags[1]}`);
    return { cert: fs.readFileSync(opts.certPath, 'utf8'), key: fs.readFileSync(opts.keyPath, 'utf8'), caPath: null, generated: false };
  }
  const caPath = localCaPath(opts.dir);
  const dir = path.dirname(caPath);
  fs.mkdirSync(dir, { recursive: true });
  const caKeyPath = path.join(dir, 'ca-key.pem');
  const prefix = opts.leaf === 'voice' ? '' : `${opts.leaf}-`;
  const certPath = path.join(dir, `${prefix}cert.pem`);
  const keyPath = path.join(dir, `${prefix}key.pem`);
  const hostsPath = path.join(dir, `${prefix}hosts.json`);
  const hosts = [...new Set(opts.hosts)].sort();

  let caKey: crypto.KeyObject;
  let caPub: crypto.KeyObject;
  let caName = NEW_CA_NAME;
  let fresh = false;
  if (fs.existsSync(caPath) && fs.existsSync(caKeyPath)) {
    caKey = crypto.createPrivateKey(fs.readFileSync(caKeyPath, 'utf8'));
    caPub = crypto.createPublicKey(caKey);
    // A leaf's issuer must repeat the CA's subject: CAs made before the API used them are "Accord local voice CA".
    caName = /CN=([^\n]+)/.exec(new crypto.X509Certificate(fs.readFileSync(caPath)).subject)?.[1] ?? NEW_CA_NAME;
  } else {
    ({ privateKey: caKey, publicKey: caPub } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    const caDer = buildCertificate({
      subject: caName,
      issuer: caName,
      publicKey: caPub,
      signer: caKey,
      issuerKeyId: keyId(caPub),
      ca: true,
      hosts: [],
      days: 3650,
    });
    fs.writeFileSync(caKeyPath, caKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    fs.writeFileSync(caPath, pem('CERTIFICATE', caDer));
    fresh = true;
  }
  const same =
    !fresh && fs.existsSync(certPath) && fs.existsSync(keyPath) && fs.existsSync(hostsPath) && fs.readFileSync(hostsPath, 'utf8') === JSON.stringify(hosts);
  if (!same) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = buildCertificate({
      subject: hosts[0] ?? 'localhost',
      issuer: caName,
      publicKey,
      signer: caKey,
      issuerKeyId: keyId(caPub),
      ca: false,
      hosts,
      days: 825,
    });
    fs.writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    fs.writeFileSync(certPath, pem('CERTIFICATE', der) + fs.readFileSync(caPath, 'utf8'));
    fs.writeFileSync(hostsPath, JSON.stringify(hosts));
  }
  return { cert: fs.readFileSync(certPath, 'utf8'), key: fs.readFileSync(keyPath, 'utf8'), caPath, generated: true };
}
