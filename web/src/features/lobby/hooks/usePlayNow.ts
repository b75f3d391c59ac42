import { useState } from "react";
import { useNavigate } from "react-router";
import { erc20Abi, parseEventLogs } from "viem";
import { readContract } from "viem/actions";
import { useConnection } from "wagmi";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { formatTokenAmount, shortAddress } from "@dicehall/core/game/format.ts";
import { useHall } from "@/chain/hall.ts";
import { useHallSettings } from "@/chain/settings.ts";
import { isNative } from "@/chain/tokens.ts";
import { approveCall, hallCall, useTx } from "@/chain/tx.ts";
import { loadTablePrefs, saveTablePrefs } from "@/data/tablePrefs.ts";
import {
  effectivePrefs,
  pickTable,
  PLAY_NOW_JOIN_WINDOW,
  PLAY_NOW_MOVE_TIMEOUT,
  type CandidateTable,
} from "./playNow.ts";
import type { LobbyRow } from "./useLobbies.ts";

/** The lobby's rows as "Play now" weighs them: only those whose getGame() view is read. */
export function candidatesOf(rows: readonly LobbyRow[]): CandidateTable[] {
  return rows.flatMap(({ game, view }) =>
    view
      ? [
          {
            gameId: game.gameId,
            token: view.config.token,
            bet: view.config.bet,
            seats: view.config.seats,
            ruleSet: view.config.ruleSet,
            isPrivate: view.config.invitees.length > 0,
            open: view.status === 1,
            players: view.players,
            deadline: view.deadline,
          },
        ]
      : [],
  );
}

const inRange = (v: number, { min, max }: { min: number; max: number }) =>
  Math.min(Math.max(v, min), max);

/**
 * "Play now": a seat at the oldest open public table of the kind the player last opened or
 * joined, or a new one of that kind; then to the table.
 */
export function usePlayNow(rows: readonly LobbyRow[], nowMs: number) {
  const hall = useHall();
  const settings = useHallSettings();
  const { address: me } = useConnection();
  const navigate = useNavigate();
  const prefs =
    hall && settings.data ? effectivePrefs(loadTablePrefs(hall.chainId), settings.data) : null;
  const ctx = {
    amount: (v: bigint) => formatTokenAmount(v, prefs?.tokenInfo),
    name: shortAddress,
    nativeSymbol: hall?.chain.nativeCurrency.symbol,
  };
  const approveTx = useTx(ctx);
  const tx = useTx(ctx);
  const [step, setStep] = useState<"idle" | "approve" | "join" | "open">("idle");

  const play = async () => {
    if (!hall || !me || !prefs || !settings.data) return;
    approveTx.reset();
    tx.reset();
    const choice = pickTable(candidatesOf(rows), prefs, me, nowMs);
    if (choice.kind === "waiting") {
      navigate(`/games/${choice.gameId}`);
      return;
    }
    const native = isNative(prefs.token);
    // A join pays the table's own bet, which may differ from the remembered one (half to twice it).
    const bet =
      choice.kind === "join"
        ? (rows.find((r) => r.game.gameId === choice.gameId)?.view?.config.bet ?? prefs.bet)
        : prefs.bet;
    if (!native) {
      const allowance = await readContract(hall.client, {
        address: prefs.token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [me, hall.address],
      }).catch(() => 0n);
      if (allowance < bet) {
        setStep("approve");
        const approved = await approveTx.run(approveCall(prefs.token, hall.address, bet));
        if (!approved) return setStep("idle");
      }
    }
    const remember = () =>
      saveTablePrefs(hall.chainId, {
        token: prefs.token,
        bet,
        seats: prefs.seats,
        ruleSet: prefs.ruleSet,
      });
    if (choice.kind === "join") {
      setStep("join");
      const receipt = await tx.run(
        hallCall(hall.address, "joinGame", [choice.gameId], native ? bet : 0n),
      );
      setStep("idle");
      if (!receipt) return;
      remember();
      navigate(`/games/${choice.gameId}`);
      return;
    }
    setStep("open");
    const receipt = await tx.run(
      hallCall(
        hall.address,
        "createGame",
        [
          {
            token: prefs.token,
            bet,
            seats: prefs.seats,
            ruleSet: prefs.ruleSet,
            joinWindow: inRange(PLAY_NOW_JOIN_WINDOW, settings.data.joinWindow),
            moveTimeout: inRange(PLAY_NOW_MOVE_TIMEOUT, settings.data.moveTimeout),
            invitees: [],
          },
        ],
        native ? bet : 0n,
      ),
    );
    setStep("idle");
    if (!receipt) return;
    remember();
    const [created] = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "GameCreated",
    });
    if (created) navigate(`/games/${created.args.gameId}?created=1`);
  };

  return {
    play,
    prefs,
    ready: !!hall && !!me && !!prefs,
    step,
    busy: tx.busy || approveTx.busy,
    phase: approveTx.busy ? approveTx.phase : tx.phase,
    error: approveTx.error ?? tx.error,
  };
}
