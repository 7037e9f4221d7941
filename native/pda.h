/*
 * Solana program-derived addresses without BigInt: SHA-256 and the ed25519 "is this point on the
 * curve" test that `Pubkey::find_program_address` runs for every bump it tries. Used by the asset-leaf
 * verifier (the asset id is a PDA); see pda.c.
 */
#ifndef CAIRN_PDA_H
#define CAIRN_PDA_H

#include <stddef.h>
#include <stdint.h>

/* Longest PDA preimage: 16 seeds of 32 bytes, the bump, the program id, "ProgramDerivedAddress". */
#define CAIRN_PDA_MAX_INPUT (16 * 32 + 1 + 32 + 21)

void cairn_sha256(const uint8_t *data, size_t len, uint8_t out[32]);

/* 1 when the 32 bytes decompress to an ed25519 point as curve25519-dalek's `decompress` does
 * (the high bit is the sign of x, y is taken mod p even when not canonical), else 0. */
int cairn_ed25519_on_curve(const uint8_t y[32]);

/* `find_program_address` over a prepared preimage: `input[bump_at]` is set to 255, 254, … until
 * sha256(input) is off the curve; that hash goes to `out` and the bump is returned (-1: none). */
int cairn_find_pda(uint8_t *input, size_t len, size_t bump_at, uint8_t out[32]);

#endif
