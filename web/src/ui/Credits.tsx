import { useState } from "react";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { useCredits } from "@/data/gameData.ts";
import { useHall } from "@/chain/hall.ts";
import { useTokenInfo } from "@/chain/tokens.ts";
import { hallCall, useTx } from "@/chain/tx.ts";
import { TxStatus } from "./TxStatus.tsx";

function CreditRow({
  token,
  amount,
  onStart,
}: {
  token: Address;
  amount: bigint;
  onStart: () => void;
}) {
  const hall = useHall();
  const info = useTokenInfo(token);
  const tx = useTx({
    amount: (v) => formatTokenAmount(v, info),
    nativeSymbol: hall?.chain.nativeCurrency.symbol,
  });
  return (
    <li className="credit">
      <span className="credit__amount">
        {amount === 0n ? `${info?.symbol ?? ""} withdrawn` : formatTokenAmount(amount, info, 6)}
      </span>
      <button
        type="button"
        className="button button--primary"
        disabled={tx.busy || !hall}
        onClick={() => {
          if (!hall) return;
          onStart();
          void tx.run(hallCall(hall.address, "withdraw", [token]));
        }}
        hidden={amount === 0n}
      >
        Withdraw
      </button>
      <TxStatus tx={tx} doneText="Sent to your wallet." />
    </li>
  );
}

/** Winnings and refunds waiting in the hall (`credits`), each with its withdraw button. */
export function Credits({
  tokens,
  title = "Ready to withdraw",
  note = "Winnings and refunds wait in the hall until you withdraw them.",
}: {
  tokens: readonly Address[];
  title?: string;
  /** The line under the title: where this credit comes from. */
  note?: string;
}) {
  const { address } = useConnection();
  const credits = useCredits(address, tokens);
  // A row stays once its withdrawal starts, so its confirmation (or error) can be read.
  const [withdrawn, setWithdrawn] = useState<string[]>([]);
  const owed = [...(credits.data ?? new Map<string, bigint>())].filter(
    ([token, amount]) => amount > 0n || withdrawn.includes(token),
  );
  if (!address || owed.length === 0) return null;
  return (
    <section className="card credits" aria-labelledby="credits-title">
      <h2 id="credits-title">{title}</h2>
      <p className="muted">{note}</p>
      <ul className="credits__list">
        {owed.map(([token, amount]) => (
          <CreditRow
            key={token}
            token={token as Address}
            amount={amount}
            onStart={() => setWithdrawn((list) => [...list, token])}
          />
        ))}
      </ul>
    </section>
  );
}
