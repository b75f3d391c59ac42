import { maxUint256 } from "viem";

/**
 * A game number from a URL or typed by a player ("12", "#12", " 12 "), or null when it cannot be
 * one: digits only, from 1 (ids start at 1) up to the largest uint256. Checked before any read: a number past uint256 would otherwise reach the
 * contract call's encoder, which fails late and in its own words ("Hex size exceeds padding size").
 */
export function parseGameId(text: string | undefined): bigint | null {
  const clean = text?.trim().replace(/^#/, "");
  if (!clean || !/^\d{1,100}$/.test(clean)) return null;
  const id = BigInt(clean);
  return id >= 1n && id <= maxUint256 ? id : null;
}
