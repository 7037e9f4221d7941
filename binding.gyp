{
  "targets": [
    {
      "target_name": "cairn_native",
      "sources": ["native/addon.c", "native/poseidon.c", "native/keccak.c", "native/pda.c", "native/json_scan.c", "native/asset_proof_json.c", "native/asset_proof_records.c", "native/copy_stream.c", "native/json_ranges.c"],
      "cflags": ["-O3", "-std=c11", "-fno-strict-aliasing"],
      "cflags_c": ["-O3", "-std=c11"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
