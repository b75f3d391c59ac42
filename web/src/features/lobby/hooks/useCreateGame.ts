import { useState } from "react";
import { parseEventLogs, type Address } from "viem";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { useHall } from "@/chain/hall.ts";
import type { ErrorContext } from "@/chain/errors.ts";
import { useBetPayment } from "@/chain/payment.ts";
import { hallCall, useTx } from "@/chain/tx.ts";

export interface NewGame {
  token: Address;
  bet: bigint;
  seats: number;
  ruleSet: number;
  joinWindow: number;
  moveTimeout: number;
  invitees: Address[];
}

/** Approve (ERC-20, when needed) and open the lobby; resolves to the new game id. */
export function useCreateGame(draft: NewGame | null, ctx: ErrorContext) {
  const hall = useHall();
  const payment = useBetPayment(draft?.token, draft?.bet ?? 0n, ctx);
  const createTx = useTx(ctx);
  const [step, setStep] = useState<"idle" | "approve" | "create">("idle");

  const create = async (): Promise<bigint | null> => {
    if (!hall || !draft) return null;
    createTx.reset();
    if (payment.needsApproval) {
      setStep("approve");
      if (!(await payment.approve())) {
        setStep("idle");
        return null;
      }
    }
    setStep("create");
    const receipt = await createTx.run(
      hallCall(
        hall.address,
        "createGame",
        [
          {
            token: draft.token,
            bet: draft.bet,
            seats: draft.seats,
            ruleSet: draft.ruleSet,
            joinWindow: draft.joinWindow,
            moveTimeout: draft.moveTimeout,
            invitees: draft.invitees,
          },
        ],
        payment.value,
      ),
    );
    setStep("idle");
    if (!receipt) return null;
    const [created] = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "GameCreated",
    });
    return created?.args.gameId ?? null;
  };

  return {
    create,
    step,
    payment,
    createTx,
    busy: createTx.busy || payment.approveTx.busy,
    error: payment.approveTx.error ?? createTx.error,
  };
}
