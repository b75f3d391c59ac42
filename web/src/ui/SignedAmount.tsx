import type { Address } from "viem";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { useTokenInfo } from "@/chain/tokens.ts";

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
