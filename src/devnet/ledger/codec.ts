/**
 * The ledger file's JSON: plain JSON plus tags for what JSON lacks — bytes (`{"$b64": …}`), bigints
 * (`{"$big": "…"}`), Sets and Maps — so the devnet's state records round-trip without a schema per
 * record. Decoding rejects a tag with a malformed payload instead of passing it through.
 */

/** Encode `value` as tagged JSON text. */
export function encodeLedgerJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string) {
    // JSON.stringify has already called toJSON on the raw value; read it from the holder instead.
    const raw = this[key];
    if (raw instanceof Uint8Array) return { $b64: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') };
    if (typeof raw === 'bigint') return { $big: raw.toString() };
    if (raw instanceof Set) return { $set: [...raw] };
    if (raw instanceof Map) return { $map: [...raw] };
    return raw;
  });
}

/** Decode tagged JSON text; throws (a SyntaxError or a TypeError naming the tag) on anything malformed. */
export function decodeLedgerJson(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length !== 1 || !keys[0]!.startsWith('$')) return v;
    const tag = keys[0]!;
    const payload = o[tag];
    switch (tag) {
      case '$b64':
        if (typeof payload !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw new TypeError('malformed $b64 value');
        return new Uint8Array(Buffer.from(payload, 'base64'));
      case '$big':
        if (typeof payload !== 'string' || !/^-?\d+$/.test(payload)) throw new TypeError('malformed $big value');
        return BigInt(payload);
      case '$set':
        if (!Array.isArray(payload)) throw new TypeError('malformed $set value');
        return new Set(payload);
      case '$map':
        if (!Array.isArray(payload) || !payload.every((e) => Array.isArray(e) && e.length === 2)) throw new TypeError('malformed $map value');
        return new Map(payload as [unknown, unknown][]);
      default:
        return v;
    }
  });
}
