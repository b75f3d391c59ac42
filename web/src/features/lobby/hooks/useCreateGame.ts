import { useState } from "react";
import { parseEventLogs, type Address, type ContractFunctionArgs } from "viem";
import { useConfig, useConnection } from "wagmi";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { useHall } from "@/chain/hall.ts";
import type { ErrorContext } from "@/chain/errors.ts";
import { useBetPayment } from "@/chain/payment.ts";
import { rememberSessionGame } from "@/chain/session.ts";
import { sessionGrant, type SessionOffer } from "@/chain/sessionHooks.ts";
import { walletBatches } from "@/chain/batch.ts";
import { approveCall, hallCall, useTx, type WriteRequest } from "@/chain/tx.ts";

export interface NewGame {
  token: Address;
  bet: bigint;
  seats: number;
  ruleSet: number;
  joinWindow: number;
  moveTimeout: number;
  invitees: Address[];
  /** Games in the match, 1–10 (issue 33); absent = 1, a single game. */
  games?: number;
}

type GameConfigArg = ContractFunctionArgs<typeof diceHallAbi, "payable", "createGame">[0];
type GrantArg = ContractFunctionArgs<typeof diceHallAbi, "payable", "createGameWithSession">[1] & {
  /** The key's EIP-712 consent to this grant (sessionGrant signs it). */
  consent: `0x${string}`;
};

/**
 * The write that opens a table: a single game (createGame, as before matches) or a match of
 * `games` games for one stake (createMatch), each with its session form (one confirmation for the
 * whole match: the key and its funds are granted in the same call).
 */
export function createRequest(
  hallAddress: Address,
  config: GameConfigArg,
  games: number,
  grant: GrantArg | null,
  session: SessionOffer | null,
  value: bigint,
): WriteRequest {
  if (games > 1) {
    return session && grant
      ? hallCall(
          hallAddress,
          "createMatchWithSession",
          [config, games, grant, grant.consent],
          session.value,
        )
      : hallCall(hallAddress, "createMatch", [config, games], value);
  }
  return session && grant
    ? hallCall(hallAddress, "createGameWithSession", [config, grant, grant.consent], session.value)
    : hallCall(hallAddress, "createGame", [config], value);
}

/**
 * Approve (ERC-20, when needed) and open the lobby; resolves to the new game id. With `session`
 * (one confirmation a game), the same call names this browser's session key and pays its gas and
 * the roll fees into the credit.
 */
export function useCreateGame(
  draft: NewGame | null,
  ctx: ErrorContext,
  session: SessionOffer | null = null,
) {
  const hall = useHall();
  const { address } = useConnection();
  const wagmiConfig = useConfig();
  const payment = useBetPayment(draft?.token, draft?.bet ?? 0n, ctx);
  const createTx = useTx(ctx);
  const [step, setStep] = useState<"idle" | "approve" | "create">("idle");

  const create = async (): Promise<bigint | null> => {
    if (!hall || !draft) return null;
    createTx.reset();
    const config = {
      token: draft.token,
      bet: draft.bet,
      seats: draft.seats,
      ruleSet: draft.ruleSet,
      joinWindow: draft.joinWindow,
      moveTimeout: draft.moveTimeout,
      invitees: draft.invitees,
    };
    const grant = session && address ? await sessionGrant(hall, address, session) : null;
    const request = createRequest(
      hall.address,
      config,
      draft.games ?? 1,
      grant,
      session,
      payment.value,
    );
    let receipt;
    // A wallet that batches (EIP-5792) approves and opens the table in one confirmation.
    if (payment.needsApproval && (await walletBatches(wagmiConfig, hall.chainId))) {
      setStep("create");
      receipt = await createTx.runBatch([
        approveCall(draft.token, hall.address, draft.bet),
        request,
      ]);
    } else {
      if (payment.needsApproval) {
        setStep("approve");
        if (!(await payment.approve())) {
          setStep("idle");
          return null;
        }
      }
      setStep("create");
      receipt = await createTx.run(request);
    }
    setStep("idle");
    if (!receipt) return null;
    const [created] = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "GameCreated",
    });
    const gameId = created?.args.gameId ?? null;
    // The key was granted for this game: its end pays the key's player out.
    if (gameId !== null && grant && address) rememberSessionGame(hall.chainId, address, gameId);
    return gameId;
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
