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
import { rememberSessionGame } from "@/chain/session.ts";
import { sessionGrant, sessionOffer, useSessionOffer } from "@/chain/sessionHooks.ts";
import { approveCall, hallCall, useTx } from "@/chain/tx.ts";
import { localStore } from "@/data/localStore.ts";
import { boxCount } from "@dicehall/core/rules/ruleSets.ts";
import { loadTablePrefs, saveTablePrefs } from "@/data/tablePrefs.ts";
import {
  clamp,
  effectivePrefs,
  olderTwin,
  pickTable,
  PLAY_NOW_JOIN_WINDOW,
  PLAY_NOW_MOVE_TIMEOUT,
  type CandidateTable,
} from "./playNow.ts";
import type { LobbyRow } from "./useLobbies.ts";
import { createRequest } from "./useCreateGame.ts";
import { readGameViews, type GameView } from "@/data/gameData.ts";

/** The lobby's rows as "Play now" weighs them: only those whose getGame() view is read. */
export function candidatesOf(rows: readonly LobbyRow[]): CandidateTable[] {
  return rows.flatMap(({ game, view }) => (view ? [candidateOf(game.gameId, view)] : []));
}

function candidateOf(gameId: bigint, view: GameView): CandidateTable {
  return {
    gameId,
    token: view.config.token,
    bet: view.config.bet,
    seats: view.config.seats,
    ruleSet: view.config.ruleSet,
    isPrivate: view.config.invitees.length > 0,
    open: view.status === 1,
    players: view.players,
    deadline: view.deadline,
    games: view.games,
  };
}

/** How far below a new table's number "Play now" looks on chain for a twin opened at once. */
const TWIN_LOOKBACK = 8n;

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
  const [step, setStep] = useState<"idle" | "approve" | "join" | "open" | "move">("idle");
  const [moved, setMoved] = useState<{ from: bigint; to: bigint } | null>(null);
  // One confirmation a game, as the create and join forms: a session key opened with the seat.
  const keyStorage = localStore() !== undefined;
  const timing = settings.data && {
    joinWindow: clamp(
      PLAY_NOW_JOIN_WINDOW,
      settings.data.joinWindow.min,
      settings.data.joinWindow.max,
    ),
    moveTimeout: clamp(
      PLAY_NOW_MOVE_TIMEOUT,
      settings.data.moveTimeout.min,
      settings.data.moveTimeout.max,
    ),
  };
  const offer = useSessionOffer(
    keyStorage && prefs && timing
      ? {
          token: prefs.token,
          bet: prefs.bet,
          boxes: boxCount(prefs.ruleSet),
          seats: prefs.seats,
          games: prefs.games ?? 1,
          ...timing,
        }
      : null,
    Math.floor(nowMs / 1000),
  );

  /** The token's allowance for `bet`, asked for if short; false if the player refused it. */
  const allowed = async (bet: bigint): Promise<boolean> => {
    if (!hall || !me || !prefs || isNative(prefs.token)) return true;
    const allowance = await readContract(hall.client, {
      address: prefs.token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [me, hall.address],
    }).catch(() => 0n);
    if (allowance >= bet) return true;
    setStep("approve");
    return !!(await approveTx.run(approveCall(prefs.token, hall.address, bet)));
  };

  /** Live tables just below `mine` as the chain has them now, with the lobby's older ones. */
  const tablesBelow = async (mine: bigint): Promise<CandidateTable[]> => {
    if (!hall) return [];
    const ids: bigint[] = [];
    for (let id = mine - 1n; id >= 1n && id >= mine - TWIN_LOOKBACK; id--) ids.push(id);
    // Every id below the newest exists; if the read fails, the lobby's list is all there is.
    const views = await readGameViews(hall, ids).catch(() => null);
    const fresh = views ? ids.map((id, i) => candidateOf(id, views[i])) : [];
    const seen = new Set(fresh.map((t) => t.gameId));
    return [...fresh, ...candidatesOf(rows).filter((t) => !seen.has(t.gameId))];
  };

  const play = async () => {
    if (!hall || !me || !prefs || !settings.data) return;
    approveTx.reset();
    tx.reset();
    setMoved(null);
    const started = Date.now();
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
    if (!(await allowed(bet))) return setStep("idle");
    const remember = () =>
      saveTablePrefs(hall.chainId, {
        token: prefs.token,
        bet,
        seats: prefs.seats,
        ruleSet: prefs.ruleSet,
        games: prefs.games ?? 1,
      });
    // The session's value with this table's own bet.
    const session = offer && sessionOffer({ ...offer, token: prefs.token, bet });
    const grant = session ? await sessionGrant(hall, me, session) : null;
    if (choice.kind === "join") {
      setStep("join");
      const receipt = await tx.run(
        session && grant
          ? hallCall(
              hall.address,
              "joinGameWithSession",
              [choice.gameId, grant, grant.consent],
              session.value,
            )
          : hallCall(hall.address, "joinGame", [choice.gameId], native ? bet : 0n),
      );
      setStep("idle");
      if (!receipt) return;
      if (grant) rememberSessionGame(hall.chainId, me, choice.gameId);
      remember();
      navigate(`/games/${choice.gameId}`);
      return;
    }
    setStep("open");
    const { joinWindow, moveTimeout } = settings.data;
    const config = {
      token: prefs.token,
      bet,
      seats: prefs.seats,
      ruleSet: prefs.ruleSet,
      joinWindow: clamp(PLAY_NOW_JOIN_WINDOW, joinWindow.min, joinWindow.max),
      moveTimeout: clamp(PLAY_NOW_MOVE_TIMEOUT, moveTimeout.min, moveTimeout.max),
      invitees: [],
    };
    const receipt = await tx.run(
      createRequest(hall.address, config, prefs.games ?? 1, grant, session, native ? bet : 0n),
    );
    if (!receipt) return setStep("idle");
    remember();
    const [created] = parseEventLogs({
      abi: diceHallAbi,
      logs: receipt.logs,
      eventName: "GameCreated",
    });
    if (!created) return setStep("idle");
    const mine = created.args.gameId;
    if (grant) rememberSessionGame(hall.chainId, me, mine);
    // Someone may have pressed in the same moment: the older of the two tables wins.
    const now = nowMs + (Date.now() - started);
    const twin = olderTwin(await tablesBelow(mine), mine, prefs, me, now);
    if (twin === null) {
      setStep("idle");
      navigate(`/games/${mine}?created=1`);
      return;
    }
    setStep("move");
    setMoved({ from: mine, to: twin });
    const left = await tx.run(hallCall(hall.address, "leaveGame", [mine]));
    if (!left) {
      setStep("idle");
      navigate(`/games/${mine}?created=1`);
      return;
    }
    if (!(await allowed(bet))) return setStep("idle");
    setStep("move");
    // The session opened with `mine` plays the twin too: a plain join, the key's game moves.
    const joined = await tx.run(hallCall(hall.address, "joinGame", [twin], native ? bet : 0n));
    setStep("idle");
    if (joined && grant) rememberSessionGame(hall.chainId, me, twin);
    if (joined) navigate(`/games/${twin}`);
  };

  return {
    play,
    prefs,
    moved,
    /** What one confirmation sends with the remembered bet; null when every move is signed. */
    offer: keyStorage ? offer : null,
    nativeCoin: hall?.chain.nativeCurrency,
    erc20: !!prefs && !isNative(prefs.token),
    // With a session, not before its amounts are known (they are shown before the wallet opens).
    ready: !!hall && !!me && !!prefs && (!keyStorage || !!offer),
    step,
    busy: tx.busy || approveTx.busy,
    phase: approveTx.busy ? approveTx.phase : tx.phase,
    error: approveTx.error ?? tx.error,
  };
}
