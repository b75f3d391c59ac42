import type { Address } from "viem";
import { useConnection } from "wagmi";
import { formatTokenAmount, type TokenLike } from "@dicehall/core/game/format.ts";
import type { ErrorContext } from "./errors.ts";
import { useHall } from "./hall.ts";
import { isNative, useAllowance } from "./tokens.ts";
import { approveCall, useTx, type Tx } from "./tx.ts";

export interface BetPayment {
  /** What to send as msg.value: the bet for the native coin, 0 for an ERC-20. */
  value: bigint;
  /** The ERC-20 allowance is below the bet: approve first (same flow, one more wallet step). */
  needsApproval: boolean;
  checking: boolean;
  approveTx: Tx;
  /** Approves exactly the bet; resolves true when the allowance is in place. */
  approve: () => Promise<boolean>;
}

/** Paying a bet: the native coin goes with the call, an ERC-20 needs an approval first. */
export function useBetPayment(
  token: Address | null | undefined,
  bet: bigint,
  ctx: ErrorContext = {},
): BetPayment {
  const hall = useHall();
  const { address } = useConnection();
  const allowance = useAllowance(token, address);
  const approveTx = useTx(ctx);
  const native = !token || isNative(token);
  const needsApproval = !native && bet > 0n && (allowance.data ?? 0n) < bet;
  return {
    value: native ? bet : 0n,
    needsApproval,
    checking: !native && allowance.isPending && !!address,
    approveTx,
    approve: async () => {
      if (!needsApproval) return true;
      if (!hall || !token) return false;
      const receipt = await approveTx.run(approveCall(token, hall.address, bet));
      if (receipt) await allowance.refetch();
      return receipt !== null;
    },
  };
}

/**
 * Why a seat can't be paid for, or null when it can (or the balance is not known yet): the
 * wallet holds less than the bet. The network fee comes on top, but the node's own refusal
 * says that one (see describeError).
 */
export function betShortfall(
  balance: bigint | undefined,
  bet: bigint,
  token: TokenLike | undefined,
): string | null {
  if (balance === undefined || balance >= bet) return null;
  return `You have ${formatTokenAmount(balance, token, 6)}; this table's bet is ${formatTokenAmount(bet, token, 6)}.`;
}
