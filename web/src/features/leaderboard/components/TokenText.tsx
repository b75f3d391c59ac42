import type { Address } from "viem";
import { useTokenInfo } from "@/chain/tokens.ts";

/** A token's symbol, read once from the chain (address(0) is the chain's coin). */
export function TokenOption({ token }: { token: Address }) {
  const info = useTokenInfo(token);
  return <option value={token.toLowerCase()}>{info?.symbol ?? `${token.slice(0, 8)}…`}</option>;
}
