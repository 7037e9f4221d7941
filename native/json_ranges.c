/*
 * A worker's items in its own range of a response (see json_ranges.h), and the addon's
 * `jsonItemsInRange`. The grammar between items (whitespace, commas, keys and colons) is checked here;
 * each object item's end is found by the scanner's skimmer and its text parsed by whoever reads it, as
 * for the items a skimming scan passes over (json_scan.h).
 */
#include "json_ranges.h"

#include <string.h>

#include "json_scan.h"

static inline int is_ws(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static inline size_t skip_ws(const uint8_t *b, size_t n, size_t p) {
  while (p < n && is_ws(b[p])) p++;
  return p;
}

/* The end of a key whose opening quote is b[p] (after its closing quote), or 0 unless it is one the
 * ranges take (json_ranges.h CAIRN_RANGE_MIN_KEY). */
static size_t key_end(const uint8_t *b, size_t n, size_t p) {
  size_t j = p + 1;
  for (; j < n; j++) {
    const uint8_t c = b[j];
    if (c == '"') break;
    if (c == '\\' || c < 0x20) return 0;
  }
  if (j >= n || j - (p + 1) < CAIRN_RANGE_MIN_KEY) return 0;
  return j + 1;
}

/* The item at b[p] (its key first when keyed) into `row`: the offset after it, or 0 when it is not one. */
static size_t item_at(const uint8_t *b, size_t n, size_t p, int keyed, cairn_json_skimmer skim, uint32_t *row) {
  size_t v = p;
  row[0] = row[1] = 0;
  if (keyed) {
    if (b[p] != '"') return 0;
    const size_t k = key_end(b, n, p);
    if (k == 0) return 0;
    v = skip_ws(b, n, k);
    if (v >= n || b[v] != ':') return 0;
    v = skip_ws(b, n, v + 1);
    if (v >= n) return 0;
    row[0] = (uint32_t)p;
    row[1] = (uint32_t)k;
  }
  size_t e;
  if (b[v] == '{') e = skim(b, n, v);
  else if (n - v >= 4 && memcmp(b + v, "null", 4) == 0) e = v + 4;
  else e = 0;
  if (e == 0) return 0;
  row[2] = (uint32_t)v;
  row[3] = (uint32_t)e;
  return e;
}

/* Not exact: the comma before the first item boundary that starts in [from, to), or SIZE_MAX. */
static size_t first_boundary(const uint8_t *b, size_t n, size_t from, size_t to, int keyed) {
  const size_t stop = to < n ? to : n;
  for (size_t s = from; s < stop; s++) {
    const uint8_t c = b[s];
    if (keyed ? c != '"' : (c != '{' && c != 'n')) continue;
    size_t j = s;
    while (j > 0 && is_ws(b[j - 1])) j--;
    if (j == 0 || b[j - 1] != ',') continue;
    const size_t comma = j - 1;
    j = comma;
    while (j > 0 && is_ws(b[j - 1])) j--;
    if (j == 0 || (b[j - 1] != '}' && b[j - 1] != 'l')) continue;
    if (keyed) {
      /* A key the ranges take, then a colon and an object or null (fewer boundaries mistaken). */
      const size_t k = key_end(b, n, s);
      const size_t v = k ? skip_ws(b, n, k) : n;
      const size_t w = v < n && b[v] == ':' ? skip_ws(b, n, v + 1) : n;
      if (w >= n || (b[w] != '{' && b[w] != 'n')) continue;
    }
    return comma;
  }
  return SIZE_MAX;
}

int cairn_json_items_in_range(const uint8_t *b, size_t n, size_t from, size_t to, int exact, int keyed, uint32_t *table, size_t cap, uint32_t meta[4]) {
  const uint8_t close = keyed ? '}' : ']';
  const cairn_json_skimmer skim = cairn_json_pick_skimmer();
  size_t p = from;
  size_t count = 0;
  int first = 1;
  meta[1] = meta[2] = meta[3] = 0;
  if (from > n) return (int)(meta[0] = CAIRN_RANGE_MISFIT);
  if (!exact) {
    p = first_boundary(b, n, from, to, keyed);
    if (p == SIZE_MAX) return (int)(meta[0] = CAIRN_RANGE_NONE);
  }
  /* p: right after a child (exact), or at the comma before the first boundary. */
  for (;;) {
    p = skip_ws(b, n, p);
    if (p >= n) return (int)(meta[0] = CAIRN_RANGE_MISFIT);
    if (b[p] == close) {
      meta[0] = CAIRN_RANGE_END;
      meta[2] = (uint32_t)p;
      break;
    }
    if (b[p] != ',') return (int)(meta[0] = CAIRN_RANGE_MISFIT);
    const size_t s = skip_ws(b, n, p + 1);
    if (s >= n) return (int)(meta[0] = CAIRN_RANGE_MISFIT);
    if (first) {
      meta[1] = (uint32_t)s;
      first = 0;
    }
    if (s >= to) {
      meta[0] = CAIRN_RANGE_NEXT;
      meta[2] = (uint32_t)s;
      break;
    }
    if (count == cap) {
      meta[3] = (uint32_t)count;
      return (int)(meta[0] = CAIRN_RANGE_FULL);
    }
    const size_t e = item_at(b, n, s, keyed, skim, table + 4 * count);
    if (e == 0) return (int)(meta[0] = CAIRN_RANGE_MISFIT);
    count++;
    p = e;
  }
  meta[3] = (uint32_t)count;
  return (int)meta[0];
}

static int u32s(napi_env env, napi_value v, uint32_t **data, size_t *len) {
  bool is_ta = false;
  napi_typedarray_type type;
  if (napi_is_typedarray(env, v, &is_ta) != napi_ok || !is_ta) return -1;
  if (napi_get_typedarray_info(env, v, &type, len, (void **)data, NULL, NULL) != napi_ok || type != napi_uint32_array) return -1;
  return 0;
}

static int index_arg(napi_env env, napi_value v, size_t *out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0) || d > 4294967295.0 || d != (double)(uint32_t)d) return -1;
  *out = (size_t)d;
  return 0;
}

/* jsonItemsInRange(bytes: Uint8Array, n: number, from: number, to: number, exact: boolean, keyed: boolean,
 * table: Uint32Array, meta: Uint32Array(4)): number — cairn_json_items_in_range over bytes[0..n), the
 * table's capacity its length / 4. */
static napi_value js_items_in_range(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  bool is_ta = false;
  napi_typedarray_type type;
  uint8_t *b;
  uint32_t *table, *meta;
  size_t len, n, from, to, tlen, mlen;
  bool exact, keyed;
  if (argc < 8 || napi_is_typedarray(env, argv[0], &is_ta) != napi_ok || !is_ta || napi_get_typedarray_info(env, argv[0], &type, &len, (void **)&b, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "MERKLE_INVALID_INPUT", "\"bytes\": expected Uint8Array");
    return NULL;
  }
  if (index_arg(env, argv[1], &n) || n > len || index_arg(env, argv[2], &from) || index_arg(env, argv[3], &to)) {
    napi_throw_range_error(env, "MERKLE_INVALID_INPUT", "\"n\", \"from\", \"to\": expected offsets, n within bytes");
    return NULL;
  }
  if (napi_get_value_bool(env, argv[4], &exact) != napi_ok || napi_get_value_bool(env, argv[5], &keyed) != napi_ok) {
    napi_throw_type_error(env, "MERKLE_INVALID_INPUT", "\"exact\", \"keyed\": expected booleans");
    return NULL;
  }
  if (u32s(env, argv[6], &table, &tlen) || u32s(env, argv[7], &meta, &mlen) || mlen < 4) {
    napi_throw_type_error(env, "MERKLE_INVALID_INPUT", "\"table\", \"meta\": expected Uint32Array (meta of 4)");
    return NULL;
  }
  napi_value r;
  napi_create_int32(env, cairn_json_items_in_range(b, n, from, to, exact, keyed, table, tlen / 4, meta), &r);
  return r;
}

napi_value cairn_json_ranges_register(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"jsonItemsInRange", NULL, js_items_in_range, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, 1, props) != napi_ok) {
    napi_throw_error(env, "MERKLE_KERNEL_UNAVAILABLE", "cairn_native: could not register jsonItemsInRange");
    return NULL;
  }
  return exports;
}
