import { useState } from "react";
import { Link } from "react-router";
import { useConfig } from "wagmi";
import { formatDuration, formatTokenAmount } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { betShortfall, useBetPayment } from "@/chain/payment.ts";
import { useTokenBalance } from "@/chain/tokens.ts";
import { useWalletBatches, walletBatches } from "@/chain/batch.ts";
import { approveCall, hallCall, PHASE_TEXT, useTx } from "@/chain/tx.ts";
import { useRollFee } from "@/chain/settings.ts";
import { rememberSessionGame } from "@/chain/session.ts";
import { sessionGrant, useSessionOffer, useSessionPrices } from "@/chain/sessionHooks.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { localStore } from "@/data/localStore.ts";
import { boxCount } from "@dicehall/core/rules/ruleSets.ts";
import { SessionChoice, walletAmount } from "@/ui/SessionChoice.tsx";
import { gameCost } from "@dicehall/core/contract/session.ts";
import { saveTablePrefs } from "@/data/tablePrefs.ts";
import { AddressName } from "@/ui/Address.tsx";
import { CountdownText } from "@/ui/Countdown.tsx";
import { useHeldLabel } from "@/ui/useHeldLabel.ts";
import { useChainNow } from "@/ui/useNow.ts";
import { joinLabel, joinState } from "../hooks/lobbyModel.ts";
import type { useGame } from "../hooks/useGame.ts";
import { ShareLink } from "./ShareLink.tsx";

type Game = ReturnType<typeof useGame>;

/** An open table: who sits where, the join window, and join / leave / cancel. */
export function LobbyPanel({
  game,
  gameId,
  justCreated,
}: {
  game: Game;
  gameId: bigint;
  justCreated: boolean;
}) {
  const { hall, view, me, token, betContext } = game;
  const now = useChainNow();
  const tx = useTx(betContext);
  const wagmiConfig = useConfig();
  const batches = useWalletBatches();
  const payment = useBetPayment(view?.config.token, view?.config.bet ?? 0n, betContext);
  const balance = useTokenBalance(view?.config.token, me);
  const coinBalance = useTokenBalance(NATIVE, me);
  // One confirmation a game (a session key plays the moves) unless the player chooses otherwise.
  const keyStorage = localStore() !== undefined;
  const [oneConfirmation, setOneConfirmation] = useState(keyStorage);
  const rollFee = useRollFee(gameId);
  const withKey = oneConfirmation && keyStorage;
  const offer = useSessionOffer(
    withKey && view
      ? {
          token: view.config.token,
          bet: view.config.bet,
          boxes: boxCount(view.config.ruleSet),
          seats: view.config.seats,
          // The game starts when the last seat fills: no join window to wait through.
          joinWindow: 0,
          moveTimeout: view.config.moveTimeout,
          // A match: one key for every game of it (one confirmation for the whole match).
          games: view.games,
        }
      : null,
    Math.floor(now / 1000),
    rollFee.data,
  );
  const prices = useSessionPrices(rollFee.data);
  const cost =
    view && prices.gasPrice !== undefined && prices.rollFee !== undefined
      ? gameCost(boxCount(view.config.ruleSet), prices.rollFee, prices.gasPrice, view.games)
      : null;
  // The button says what the wallet will ask for: with a key, the bet and the key's coin.
  const [shownLabel, holdLabel] = useHeldLabel(
    joinLabel(
      payment.needsApproval,
      token?.symbol,
      withKey && offer
        ? walletAmount(offer, view?.config.bet ?? 0n, token, hall?.chain.nativeCurrency)
        : formatTokenAmount(view?.config.bet ?? 0n, token),
    ),
  );
  if (!view || !hall) return null;

  const { config } = view;
  const joining = joinState(view, me, now);
  // Only once the seat is on offer: a closed window or a private table is the reason that matters.
  const native = hall.chain.nativeCurrency;
  const coinShort =
    withKey && offer && coinBalance.data !== undefined && coinBalance.data < offer.value
      ? `You have ${formatTokenAmount(coinBalance.data, native, 6)}; with the roll fees and the session key's gas joining needs ${formatTokenAmount(offer.value, native, 6)}. Choose "Sign every move" to pay only the bet.`
      : null;
  const shortfall = joining.canJoin
    ? (betShortfall(balance.data, config.bet, token) ?? coinShort)
    : null;
  const joinReason = joining.reason ?? shortfall;
  const { windowOpen } = joining;
  const seated = view.players.some((p) => sameAddress(p, me));
  const isCreator = sameAddress(view.creator, me);
  const isPrivate = config.invitees.length > 0;
  const free = config.seats - view.players.length;

  const join = () =>
    holdLabel(async () => {
      tx.reset();
      const grant = withKey && offer && me ? await sessionGrant(hall, me, offer) : null;
      const request =
        offer && grant
          ? hallCall(
              hall.address,
              "joinGameWithSession",
              [gameId, grant, grant.consent],
              offer.value,
            )
          : hallCall(hall.address, "joinGame", [gameId], payment.value);
      // A wallet that batches (EIP-5792) approves and joins in one confirmation.
      const batched = payment.needsApproval && (await walletBatches(wagmiConfig, hall.chainId));
      if (batched) {
        const receipt = await tx.runBatch([
          approveCall(config.token, hall.address, config.bet),
          request,
        ]);
        if (receipt && grant && me) rememberSessionGame(hall.chainId, me, gameId);
        if (receipt) saveTablePrefs(hall.chainId, config);
        return;
      }
      if (payment.needsApproval && !(await payment.approve())) return;
      const receipt = await tx.run(request);
      // The key was granted for this game: its end pays the key's player out.
      if (receipt && grant && me) rememberSessionGame(hall.chainId, me, gameId);
      // "Play now" looks for this kind of table next time.
      if (receipt) saveTablePrefs(hall.chainId, config);
    });
  const busy = tx.busy || payment.approveTx.busy;
  const error = payment.approveTx.error ?? tx.error;
  const busyText = payment.approveTx.busy
    ? `Approving ${token?.symbol}: ${PHASE_TEXT[payment.approveTx.phase]}`
    : tx.busy
      ? PHASE_TEXT[tx.phase]
      : null;

  return (
    <section className="card lobby-panel" aria-labelledby="lobby-title">
      <h2 id="lobby-title">Waiting for players</h2>
      <p className="lobby-panel__window">
        {windowOpen ? (
          <>
            The join window closes in <CountdownText deadline={view.deadline} nowMs={now} /> ({free}{" "}
            seat
            {free === 1 ? "" : "s"} left).
          </>
        ) : (
          <>
            The join window has closed without filling the table. Anyone can cancel it; every bet is
            refunded.
          </>
        )}
      </p>
      <ol className="seat-list" aria-label="Seats">
        {Array.from({ length: config.seats }, (_, i) => {
          const player = view.players[i];
          return (
            <li key={i} className={`seat-list__seat${player ? " is-taken" : ""}`}>
              <span className="seat-list__number">Seat {i + 1}</span>
              {player ? (
                <>
                  <AddressName address={player} />
                  {sameAddress(player, view.creator) && <span className="pill">host</span>}
                </>
              ) : (
                <span className="muted">open</span>
              )}
            </li>
          );
        })}
      </ol>
      <dl className="facts">
        <div>
          <dt>Bet</dt>
          <dd>{formatTokenAmount(config.bet, token, 6)} a seat</dd>
        </div>
        <div>
          <dt>Pot when full</dt>
          <dd>
            {formatTokenAmount(view.pot, token, 6)}
            {view.houseFeeBps > 0 && ` (house fee ${view.houseFeeBps / 100}%)`}
          </dd>
        </div>
        <div>
          <dt>Time per move</dt>
          <dd>{formatDuration(config.moveTimeout)}</dd>
        </div>
        {isPrivate && (
          <div>
            <dt>Invited</dt>
            <dd>
              {config.invitees.map((p, i) => (
                <span key={p}>
                  {i > 0 && ", "}
                  <AddressName address={p} />
                </span>
              ))}
            </dd>
          </div>
        )}
      </dl>

      <ShareLink gameId={gameId} highlight={justCreated} />

      <div className="lobby-panel__actions">
        {!me && <p className="muted">Connect a wallet to take a seat.</p>}
        {joining.offered && (
          <SessionChoice
            oneConfirmation={withKey}
            onChange={setOneConfirmation}
            offer={offer}
            token={token}
            bet={config.bet}
            native={native}
            available={keyStorage}
            approval={payment.needsApproval}
            batched={batches}
            verb="join"
            cost={cost}
            games={view.games}
          />
        )}
        {joining.offered && (
          <button
            type="button"
            className="button button--primary button--large"
            disabled={busy || !joining.canJoin || !!shortfall || (withKey && !offer)}
            aria-describedby={joinReason ? "join-reason" : undefined}
            onClick={() => void join()}
          >
            {shownLabel}
          </button>
        )}
        {joinReason && (
          <p className="muted" id="join-reason">
            {joinReason}
          </p>
        )}
        {joining.canJoin && !shortfall && balance.data !== undefined && (
          <p className="muted small">You have {formatTokenAmount(balance.data, token)}.</p>
        )}
        {me && !seated && !joining.offered && (
          <p className="muted">This table is private, and you are not on its list.</p>
        )}
        {me && seated && !isCreator && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void tx.run(hallCall(hall.address, "leaveGame", [gameId]))}
          >
            Leave and get my bet back
          </button>
        )}
        {me && (isCreator || !windowOpen) && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void tx.run(hallCall(hall.address, "cancelGame", [gameId]))}
          >
            Cancel the table (refund everyone)
          </button>
        )}
      </div>
      {busyText && <p className="tx tx--busy">{busyText}</p>}
      {error && (
        <p className="tx tx--error" role="alert">
          {error.message}
        </p>
      )}
      <p className="muted small">
        When the last seat fills, someone at the table must press “Roll for the turn order”: that
        first roll draws the order from Pyth Entropy. <Link to="/games">Other tables</Link>
      </p>
    </section>
  );
}
