import type { Address } from "viem";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { useTokenInfo } from "@/chain/tokens.ts";

/** A token's symbol, read once from the chain (address(0) is the chain's coin). */
export function TokenOption({ token }: { token: Address }) {
  const info = useTokenInfo(token);
  return <option value={token.toLowerCase()}>{info?.symbol ?? `${token.slice(0, 8)}…`}</option>;
}

/** A signed amount of a token: "+0.05 ETH", "-12 TUSD". */
export function SignedAmount({ token, value }: { token: Address; value: bigint }) {
  const info = useTokenInfo(token);
  const sign = value > 0n ? "+" : value < 0n ? "−" : "";
  const abs = value < 0n ? -value : value;
  return (
    <span className={`amount${value > 0n ? " amount--up" : value < 0n ? " amount--down" : ""}`}>
      {sign}
      {formatTokenAmount(abs, info, 4)}
    </span>
  );
}
