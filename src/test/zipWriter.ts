import { strToU8 } from 'fflate';

/** One entry of a hand-made zip: its deflated data and the uncompressed size it declares (zip64 above 4 GiB). */
export interface RawEntry {
  name: string;
  data: Uint8Array;
  declared: number;
}

/** A zip written by hand, so its entries can declare what they like (deflate, zip64 sizes when over 32 bits). */
export function rawZip(entries: RawEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = strToU8(e.name);
    const big = e.declared >= 0xffffffff;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 45, true);
    local.setUint16(8, 8, true);
    local.setUint32(18, e.data.length, true);
    local.setUint32(22, big ? 0xffffffff : e.declared, true);
    local.setUint16(26, name.length, true);
    parts.push(new Uint8Array(local.buffer), name, e.data);
    const extra = new DataView(new ArrayBuffer(big ? 12 : 0));
    if (big) {
      extra.setUint16(0, 1, true);
      extra.setUint16(2, 8, true);
      extra.setBigUint64(4, BigInt(e.declared), true);
    }
    const c = new DataView(new ArrayBuffer(46));
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 45, true);
    c.setUint16(6, 45, true);
    c.setUint16(10, 8, true);
    c.setUint32(20, e.data.length, true);
    c.setUint32(24, big ? 0xffffffff : e.declared, true);
    c.setUint16(28, name.length, true);
    c.setUint16(30, extra.byteLength, true);
    c.setUint32(42, offset, true);
    central.push(new Uint8Array(c.buffer), name, new Uint8Array(extra.buffer));
    offset += 30 + name.length + e.data.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...central, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

