/*
 * The cairn N-API addon (build/Release/cairn_native.node): the Poseidon and PDA functions below plus
 * the Keccak ones that native/keccak.c registers. Each function takes the caller's buffers and writes
 * into them, so a JS call allocates nothing; batch entry points let one crossing cover many hashes
 * or whole Merkle paths. Shapes are checked here (TypeError / RangeError with code
 * MERKLE_INVALID_INPUT naming the argument); field overflow is reported by return value so the
 * JS side can raise its typed error naming the exact element.
 */
#include <string.h>
#include <node_api.h>
#include "poseidon.h"
#include "keccak.h"
#include "pda.h"
#include "json_scan.h"
#include "asset_proof_json.h"
#include "asset_proof_records.h"
#include "copy_stream.h"
#include "json_ranges.h"

static napi_value throw_type(napi_env env, const char *msg) {
  napi_throw_type_error(env, "MERKLE_INVALID_INPUT", msg);
  return NULL;
}

static napi_value throw_range(napi_env env, const char *msg) {
  napi_throw_range_error(env, "MERKLE_INVALID_INPUT", msg);
  return NULL;
}

static int typed(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *len) {
  bool is_ta = false;
  if (napi_is_typedarray(env, v, &is_ta) != napi_ok || !is_ta) return -1;
  napi_typedarray_type type;
  if (napi_get_typedarray_info(env, v, &type, len, data, NULL, NULL) != napi_ok) return -1;
  if (type != want && !(want == napi_uint8_array && type == napi_uint8_clamped_array)) return -1;
  return 0;
}

static int bytes(napi_env env, napi_value v, uint8_t **data, size_t *len) {
  return typed(env, v, napi_uint8_array, (void **)data, len);
}

/* A non-negative integer up to 2^53 - 1. */
static int get_index(napi_env env, napi_value v, uint64_t *out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok) return -1;
  if (!(d >= 0) || d > 9007199254740991.0 || d != (double)(uint64_t)d) return -1;
  *out = (uint64_t)d;
  return 0;
}

static napi_value num(napi_env env, double v) {
  napi_value r;
  napi_create_double(env, v, &r);
  return r;
}

/* poseidonInto(concat: Uint8Array(32n), out: Uint8Array(>=32)): number (-1 or bad index) */
static napi_value js_poseidon_into(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *in, *out;
  size_t len, olen;
  if (argc < 2 || bytes(env, argv[0], &in, &len)) return throw_type(env, "\"inputs\": expected Uint8Array");
  if (len == 0 || len % 32 || len > 32 * 12) return throw_range(env, "\"inputs\": expected 32 bytes per input, 1 to 12 inputs");
  if (bytes(env, argv[1], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (olen < 32) return throw_range(env, "\"out\": expected at least 32 bytes");
  return num(env, cairn_poseidon_hash(in, (int)(len / 32), out));
}

/* poseidonBatch(inputs: Uint8Array(32*width*count), width: number, out: Uint8Array(32*count)) */
static napi_value js_poseidon_batch(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *in, *out;
  size_t len, olen;
  uint32_t width;
  if (argc < 3 || bytes(env, argv[0], &in, &len)) return throw_type(env, "\"inputs\": expected Uint8Array");
  if (napi_get_value_uint32(env, argv[1], &width) != napi_ok || width < 1 || width > 12)
    return throw_range(env, "\"width\": expected an integer 1..12");
  if (len % (32 * (size_t)width)) return throw_range(env, "\"inputs\": expected 32*width bytes per hash");
  const size_t count = len / (32 * (size_t)width);
  if (bytes(env, argv[2], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (olen < 32 * count) return throw_range(env, "\"out\": expected 32 bytes per hash");
  return num(env, (double)cairn_poseidon_batch(in, (int)width, count, out));
}

/* poseidonPathRootInto(leaf: Uint8Array(32), proof: Uint8Array(32*depth), index, out): number */
static napi_value js_path_root_into(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *leaf, *proof, *out;
  size_t len, plen, olen;
  uint64_t index;
  if (argc < 4 || bytes(env, argv[0], &leaf, &len)) return throw_type(env, "\"leaf\": expected Uint8Array");
  if (len != 32) return throw_range(env, "\"leaf\": expected 32 bytes");
  if (bytes(env, argv[1], &proof, &plen)) return throw_type(env, "\"proof\": expected Uint8Array");
  if (plen % 32) return throw_range(env, "\"proof\": expected a multiple of 32 bytes");
  if (get_index(env, argv[2], &index)) return throw_range(env, "\"index\": expected a non-negative safe integer");
  if (bytes(env, argv[3], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (olen < 32) return throw_range(env, "\"out\": expected at least 32 bytes");
  return num(env, cairn_poseidon_path_root(leaf, proof, plen / 32, index, out));
}

/* Shared arguments of the path batches: leaves, proofs, indices (Float64Array), depth. */
static int path_batch_args(napi_env env, napi_value *argv, uint8_t **leaves, uint8_t **proofs, double **indices,
                           size_t *m, size_t *depth) {
  size_t llen, plen, ilen;
  uint32_t d;
  if (bytes(env, argv[0], leaves, &llen)) { throw_type(env, "\"leaves\": expected Uint8Array"); return -1; }
  if (bytes(env, argv[1], proofs, &plen)) { throw_type(env, "\"proofs\": expected Uint8Array"); return -1; }
  if (typed(env, argv[2], napi_float64_array, (void **)indices, &ilen)) {
    throw_type(env, "\"indices\": expected Float64Array");
    return -1;
  }
  if (napi_get_value_uint32(env, argv[3], &d) != napi_ok || d > 64) {
    throw_range(env, "\"depth\": expected an integer 0..64");
    return -1;
  }
  *m = ilen;
  *depth = d;
  if (llen != 32 * ilen) { throw_range(env, "\"leaves\": expected 32 bytes per index"); return -1; }
  if (plen != 32 * (size_t)d * ilen) { throw_range(env, "\"proofs\": expected 32*depth bytes per index"); return -1; }
  for (size_t k = 0; k < ilen; k++) {
    const double x = (*indices)[k];
    if (!(x >= 0) || x > 9007199254740991.0 || x != (double)(uint64_t)x) {
      throw_range(env, "\"indices\": expected non-negative safe integers");
      return -1;
    }
  }
  return 0;
}

/* poseidonPathRootBatch(leaves, proofs, indices, depth, out(32m), verdicts(m)): number of roots
 * computed; verdicts[k] = 1, or 2 when path k holds an element >= r (its root left zero). */
static napi_value js_path_root_batch(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 6) return throw_type(env, "expected 6 arguments");
  uint8_t *leaves, *proofs, *out, *verdicts;
  double *indices;
  size_t m, depth, olen, vlen;
  if (path_batch_args(env, argv, &leaves, &proofs, &indices, &m, &depth)) return NULL;
  if (bytes(env, argv[4], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (olen < 32 * m) return throw_range(env, "\"out\": expected 32 bytes per index");
  if (bytes(env, argv[5], &verdicts, &vlen)) return throw_type(env, "\"verdicts\": expected Uint8Array");
  if (vlen < m) return throw_range(env, "\"verdicts\": expected one byte per index");
  double done = 0;
  for (size_t k = 0; k < m; k++) {
    const int bad = cairn_poseidon_path_root(leaves + 32 * k, proofs + 32 * depth * k, depth, (uint64_t)indices[k],
                                             out + 32 * k);
    if (bad >= 0) {
      memset(out + 32 * k, 0, 32);
      verdicts[k] = 2;
    } else {
      verdicts[k] = 1;
      done++;
    }
  }
  return num(env, done);
}

/* poseidonVerifyBatch(leaves, proofs, indices, depth, roots(32m), verdicts(m)): number valid;
 * verdicts[k] = 1 match, 0 mismatch, 2 an element >= r. */
static napi_value js_verify_batch(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 6) return throw_type(env, "expected 6 arguments");
  uint8_t *leaves, *proofs, *roots, *verdicts;
  double *indices;
  size_t m, depth, rlen, vlen;
  if (path_batch_args(env, argv, &leaves, &proofs, &indices, &m, &depth)) return NULL;
  if (bytes(env, argv[4], &roots, &rlen)) return throw_type(env, "\"roots\": expected Uint8Array");
  if (rlen != 32 * m) return throw_range(env, "\"roots\": expected 32 bytes per index");
  if (bytes(env, argv[5], &verdicts, &vlen)) return throw_type(env, "\"verdicts\": expected Uint8Array");
  if (vlen < m) return throw_range(env, "\"verdicts\": expected one byte per index");
  double valid = 0;
  uint8_t h[32];
  for (size_t k = 0; k < m; k++) {
    const int bad = cairn_poseidon_path_root(leaves + 32 * k, proofs + 32 * depth * k, depth, (uint64_t)indices[k], h);
    if (bad >= 0) verdicts[k] = 2;
    else verdicts[k] = memcmp(h, roots + 32 * k, 32) == 0;
    valid += verdicts[k] == 1;
  }
  return num(env, valid);
}

/* ed25519OnCurve(bytes: Uint8Array(32)): boolean, curve25519-dalek decompression semantics */
static napi_value js_on_curve(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *in;
  size_t len;
  if (argc < 1 || bytes(env, argv[0], &in, &len)) return throw_type(env, "\"point\": expected Uint8Array");
  if (len != 32) return throw_range(env, "\"point\": expected 32 bytes");
  napi_value r;
  napi_get_boolean(env, cairn_ed25519_on_curve(in) != 0, &r);
  return r;
}

/* findPda(preimage: Uint8Array, bumpAt: number, out: Uint8Array(>=32)): number (bump, or -1).
 * The preimage is seeds ‖ bump ‖ program id ‖ "ProgramDerivedAddress"; its bump byte is written. */
static napi_value js_find_pda(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *in, *out;
  size_t len, olen;
  uint64_t at;
  if (argc < 3 || bytes(env, argv[0], &in, &len)) return throw_type(env, "\"preimage\": expected Uint8Array");
  if (len > CAIRN_PDA_MAX_INPUT) return throw_range(env, "\"preimage\": longer than 16 seeds of 32 bytes allow");
  if (get_index(env, argv[1], &at) || at >= len) return throw_range(env, "\"bumpAt\": expected an index into the preimage");
  if (bytes(env, argv[2], &out, &olen) || olen < 32) return throw_type(env, "\"out\": expected Uint8Array of at least 32 bytes");
  return num(env, cairn_find_pda(in, len, (size_t)at, out));
}

/* jsonScan(bytes: Uint8Array, tape: Uint32Array, state?: Uint32Array, stopAt?: number): number —
 * src/json/scan-js.ts's contract: the entry count, -1 (TAPE_FULL), -10 (SUSPENDED: state holds
 * where to go on) or -(2 + ScanError) with the error's byte offset in tape[0] (for -11, a number over 40
 * characters, its end is in tape[1]). Without `state` the scan runs to the end. */
static napi_value js_json_scan(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *in;
  void *tape, *state = NULL;
  size_t len, tlen, slen = 0;
  uint64_t stop = SIZE_MAX;
  if (argc < 2 || bytes(env, argv[0], &in, &len)) return throw_type(env, "\"bytes\": expected Uint8Array");
  if (len > 0xffffffffu) return throw_range(env, "\"bytes\": longer than 2^32 - 1 bytes");
  if (typed(env, argv[1], napi_uint32_array, &tape, &tlen)) return throw_type(env, "\"tape\": expected Uint32Array");
  if (argc >= 3) {
    napi_valuetype t;
    napi_typeof(env, argv[2], &t);
    if (t != napi_undefined) {
      if (typed(env, argv[2], napi_uint32_array, &state, &slen) || slen < CAIRN_JSON_STATE_U32S) return throw_type(env, "\"state\": expected Uint32Array of 3078 elements");
      if (argc >= 4 && get_index(env, argv[3], &stop)) return throw_range(env, "\"stopAt\": expected a byte offset");
    }
  }
  return num(env, (double)cairn_json_scan_from(in, len, (uint32_t *)tape, tlen, (uint32_t *)state, (size_t)stop));
}

/* packAssetProofJson(src: Uint8Array, a: number, b: number, out: Uint8Array, pos: number, id: Uint32Array(3),
 * ids?: Uint8Array): number — the position after the record written at out[pos], -1 when the item is
 * declined (nothing written), -2 when out (or ids) has no room for it. See asset_proof_json.h. */
static napi_value js_pack_asset_proof_json(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *src, *out, *ids = NULL;
  void *id;
  size_t slen, olen, idlen, ids_len = 0;
  uint64_t a, b, pos;
  if (argc < 6 || bytes(env, argv[0], &src, &slen)) return throw_type(env, "\"src\": expected Uint8Array");
  if (get_index(env, argv[1], &a) || get_index(env, argv[2], &b) || a > b || b > slen) return throw_range(env, "\"a\", \"b\": expected a range of src");
  if (bytes(env, argv[3], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (get_index(env, argv[4], &pos)) return throw_range(env, "\"pos\": expected an offset");
  if (typed(env, argv[5], napi_uint32_array, &id, &idlen) || idlen < 2) return throw_type(env, "\"id\": expected Uint32Array(2)");
  if (argc >= 7) {
    napi_valuetype t;
    napi_typeof(env, argv[6], &t);
    if (t != napi_undefined) {
      if (bytes(env, argv[6], &ids, &ids_len)) return throw_type(env, "\"ids\": expected Uint8Array");
      if (idlen < 3) return throw_type(env, "\"id\": expected Uint32Array(3) with ids");
    }
  }
  return num(env, (double)cairn_pack_asset_proof_json(src, (size_t)a, (size_t)b, out, olen, (size_t)pos, (uint32_t *)id, ids, ids_len));
}

/* packAssetProofJsonMany(src: Uint8Array, table: Uint32Array, from: number, to: number, out: Uint8Array,
 * at: Uint32Array(2) [pos, rec], id: Uint32Array(3), ids: Uint8Array, idLens: Uint32Array): number — items
 * from..to-1 of the table packed until one is declined (asset_proof_json.h); at[0] moves past the last
 * record. Returns the items packed. */
static napi_value js_pack_asset_proof_json_many(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *src, *out, *ids;
  void *table, *at, *id, *lens;
  size_t slen, tlen, olen, alen, idlen, ids_len, llen;
  uint64_t from, to;
  if (argc < 9 || bytes(env, argv[0], &src, &slen)) return throw_type(env, "\"src\": expected Uint8Array");
  if (typed(env, argv[1], napi_uint32_array, &table, &tlen)) return throw_type(env, "\"table\": expected Uint32Array");
  if (get_index(env, argv[2], &from) || get_index(env, argv[3], &to) || from > to || to > tlen / 4) return throw_range(env, "\"from\", \"to\": expected items of the table");
  if (bytes(env, argv[4], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (typed(env, argv[5], napi_uint32_array, &at, &alen) || alen < 2) return throw_type(env, "\"at\": expected Uint32Array(2)");
  if (typed(env, argv[6], napi_uint32_array, &id, &idlen) || idlen < 3) return throw_type(env, "\"id\": expected Uint32Array(3)");
  if (bytes(env, argv[7], &ids, &ids_len)) return throw_type(env, "\"ids\": expected Uint8Array");
  if (typed(env, argv[8], napi_uint32_array, &lens, &llen) || llen < to) return throw_type(env, "\"idLens\": expected Uint32Array of an entry per item");
  uint32_t *a = (uint32_t *)at;
  size_t pos = a[0];
  const size_t k = cairn_pack_asset_proof_json_many(src, slen, (const uint32_t *)table, (size_t)from, (size_t)to, out, olen, &pos, a[1], (uint32_t *)id, ids, ids_len, (uint32_t *)lens);
  a[0] = (uint32_t)pos;
  return num(env, (double)k);
}

/* verifyAssetProofRecords(batch: Uint8Array, codes: Uint8Array): number — codes[i] 1 for a record
 * verified valid in place, 0 for one left to the JS path; how many are valid, or -1 for a malformed
 * batch header. See asset_proof_records.h. */
static napi_value js_verify_asset_proof_records(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *batch, *codes;
  size_t blen, clen;
  if (argc < 2 || bytes(env, argv[0], &batch, &blen)) return throw_type(env, "\"batch\": expected Uint8Array");
  if (bytes(env, argv[1], &codes, &clen)) return throw_type(env, "\"codes\": expected Uint8Array");
  return num(env, (double)cairn_verify_asset_proof_records(batch, blen, codes, clen));
}

/* b58Decode32Into(s: string, out: Uint8Array, off: number): boolean — s as base58 of exactly 32 bytes
 * into out[off..off+32] (merkle/fields.ts b58Decode32Into's rules), false when it is not. Read as UTF-16, so
 * a character outside ASCII can never pass for the byte it ends in. */
static napi_value js_b58_decode32_into(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char16_t units[48];
  size_t n = 0, olen;
  uint8_t *out;
  uint64_t off;
  napi_value res;
  if (argc < 3 || napi_get_value_string_utf16(env, argv[0], units, 48, &n) != napi_ok) return throw_type(env, "\"s\": expected a string");
  if (bytes(env, argv[1], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (get_index(env, argv[2], &off) || olen < 32 || off > olen - 32) return throw_range(env, "\"off\": expected an offset with 32 bytes of out after it");
  /* 47 units read means the string may be longer: too long either way (at most 44). */
  uint8_t text[44];
  int ok = n >= 32 && n <= 44;
  for (size_t i = 0; ok && i < n; i++) {
    if (units[i] >= 0x80) ok = 0;
    else text[i] = (uint8_t)units[i];
  }
  uint8_t tmp[32];
  ok = ok && cairn_b58_decode32(text, 0, n, tmp);
  if (ok) memcpy(out + off, tmp, 32);
  napi_get_boolean(env, ok, &res);
  return res;
}

/* copyBytes(dst: Uint8Array, dstAt: number, src: Uint8Array, srcAt: number, n: number, stream: boolean):
 * dst[dstAt..+n] = src[srcAt..+n], with non-temporal stores when `stream` (copy_stream.h). The two
 * ranges must not overlap (a copy from a body into shared memory never does). */
static napi_value js_copy_bytes(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *dst, *src;
  size_t dlen, slen;
  uint64_t da, sa, n;
  bool stream = false;
  if (argc < 6 || bytes(env, argv[0], &dst, &dlen)) return throw_type(env, "\"dst\": expected Uint8Array");
  if (bytes(env, argv[2], &src, &slen)) return throw_type(env, "\"src\": expected Uint8Array");
  if (get_index(env, argv[1], &da) || get_index(env, argv[3], &sa) || get_index(env, argv[4], &n) || da > dlen || n > dlen - da || sa > slen || n > slen - sa)
    return throw_range(env, "\"dstAt\", \"srcAt\", \"n\": expected ranges inside dst and src");
  if (napi_get_value_bool(env, argv[5], &stream) != napi_ok) return throw_type(env, "\"stream\": expected a boolean");
  if (src + sa < dst + da + n && dst + da < src + sa + n) return throw_range(env, "\"dst\", \"src\": the ranges overlap");
  cairn_copy(dst + da, src + sa, (size_t)n, stream);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"poseidonInto", NULL, js_poseidon_into, NULL, NULL, NULL, napi_enumerable, NULL},
    {"poseidonBatch", NULL, js_poseidon_batch, NULL, NULL, NULL, napi_enumerable, NULL},
    {"poseidonPathRootInto", NULL, js_path_root_into, NULL, NULL, NULL, napi_enumerable, NULL},
    {"poseidonPathRootBatch", NULL, js_path_root_batch, NULL, NULL, NULL, napi_enumerable, NULL},
    {"poseidonVerifyBatch", NULL, js_verify_batch, NULL, NULL, NULL, napi_enumerable, NULL},
    {"ed25519OnCurve", NULL, js_on_curve, NULL, NULL, NULL, napi_enumerable, NULL},
    {"findPda", NULL, js_find_pda, NULL, NULL, NULL, napi_enumerable, NULL},
    {"jsonScan", NULL, js_json_scan, NULL, NULL, NULL, napi_enumerable, NULL},
    {"packAssetProofJson", NULL, js_pack_asset_proof_json, NULL, NULL, NULL, napi_enumerable, NULL},
    {"packAssetProofJsonMany", NULL, js_pack_asset_proof_json_many, NULL, NULL, NULL, napi_enumerable, NULL},
    {"verifyAssetProofRecords", NULL, js_verify_asset_proof_records, NULL, NULL, NULL, napi_enumerable, NULL},
    {"b58Decode32Into", NULL, js_b58_decode32_into, NULL, NULL, NULL, napi_enumerable, NULL},
    {"copyBytes", NULL, js_copy_bytes, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props) != napi_ok) {
    napi_throw_error(env, "MERKLE_KERNEL_UNAVAILABLE", "cairn_native: could not register the poseidon and PDA functions");
    return NULL;
  }
  if (!cairn_json_ranges_register(env, exports)) return NULL;
  return cairn_keccak_register(env, exports);
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
