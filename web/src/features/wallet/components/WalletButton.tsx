import { useEffect, useState } from "react";
import { useMatch } from "react-router";
import type { Address } from "viem";
import { useConnection, useDisconnect } from "wagmi";
import { DEV_ACCOUNTS_ID } from "@/chain/devAccounts.ts";
import { useEnsName } from "@/chain/ens.ts";
import { useGameSnapshot } from "@/data/gameData.ts";
import { formatBalance, shortAddress } from "@dicehall/core/game/format.ts";
import { parseGameId } from "@dicehall/core/game/gameId.ts";
import { useHall } from "@/chain/hall.ts";
import { useHallSettings } from "@/chain/settings.ts";
import { isNative, NATIVE, useTokenBalance, useTokenInfo, type TokenInfo } from "@/chain/tokens.ts";
import { Identicon } from "@/ui/Identicon.tsx";
import { Modal } from "@/ui/Modal.tsx";
import { ConnectDialog, DevAccountPicker } from "./ConnectDialog.tsx";

function Balance({ token }: { token: TokenInfo }) {
  const { address } = useConnection();
  const balance = useTokenBalance(token.address, address);
  return (
    <li className="balance">
      <span>{token.symbol}</span>
      <span className="balance__value">
        {balance.data === undefined ? "…" : formatBalance(balance.data, token)}
      </span>
    </li>
  );
}

function AccountPanel({ onClose }: { onClose: () => void }) {
  const { address, connector, chain } = useConnection();
  const disconnect = useDisconnect();
  const hall = useHall();
  const settings = useHallSettings();
  const [copied, setCopied] = useState(false);
  const native: TokenInfo | null = hall
    ? { address: NATIVE, native: true, ...hall.chain.nativeCurrency }
    : null;
  const tokens = (settings.data?.tokens ?? []).filter((t) => !t.native && t.allowed);

  if (!address) return null;
  return (
    <Modal labelledBy="account-title" className="account" onClose={onClose}>
      <div className="modal__head">
        <h2 id="account-title">Your wallet</h2>
        <button type="button" className="button button--quiet" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      <p className="account__address">
        <code>{address}</code>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => void navigator.clipboard?.writeText(address).then(() => setCopied(true))}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </p>
      <p className="muted small">
        {connector?.name} on {chain?.name ?? "an unknown network"}
      </p>
      <h3>Balances</h3>
      <ul className="balances">
        {native && <Balance token={native} />}
        {tokens.map((t) => (
          <Balance key={t.address} token={t} />
        ))}
      </ul>
      {connector?.id === DEV_ACCOUNTS_ID && (
        <>
          <h3>Play as another local account</h3>
          <DevAccountPicker onPicked={onClose} />
        </>
      )}
      <button
        type="button"
        className="button"
        onClick={() => {
          disconnect.mutate();
          onClose();
        }}
      >
        Disconnect
      </button>
    </Modal>
  );
}

/**
 * The token of the table on screen, when it is not the native coin: a TUSD table's player wants
 * their TUSD in sight, not only their ETH. Reads the game's snapshot the page itself holds.
 */
function useTableToken(): Address | null {
  const match = useMatch("/games/:id/*");
  const id = match?.params.id;
  const gameId = parseGameId(id);
  const snapshot = useGameSnapshot(gameId);
  return tableTokenOf(snapshot.data?.view.config.token);
}

/** The table's token for the header, or null for the native coin (already shown) or no table. */
function tableTokenOf(token: Address | null | undefined): Address | null {
  return token && !isNative(token) ? token : null;
}

function TokenChip({ token, account }: { token: Address; account: Address }) {
  const info = useTokenInfo(token);
  const balance = useTokenBalance(token, account);
  if (!info || balance.data === undefined) return null;
  return (
    <span className="wallet-chip__balance" data-testid="table-token-balance">
      {formatBalance(balance.data, info)}
    </span>
  );
}

/** The header's wallet control: connect, or who you are with your balance. */
export function WalletButton() {
  const { address, isConnected, isConnecting, isReconnecting } = useConnection();
  const hall = useHall();
  const ens = useEnsName(address);
  const [open, setOpen] = useState(false);
  const balance = useTokenBalance(NATIVE, address);
  const native = hall ? { ...hall.chain.nativeCurrency } : undefined;
  const tableToken = useTableToken();
  // Connecting (or disconnecting) closes whichever dialog was open.
  useEffect(() => setOpen(false), [isConnected]);

  if (!isConnected || !address) {
    return (
      <>
        <button
          type="button"
          className="button button--primary"
          onClick={() => setOpen(true)}
          disabled={isConnecting}
        >
          {isReconnecting ? "Reconnecting…" : isConnecting ? "Connecting…" : "Connect wallet"}
        </button>
        {open && <ConnectDialog onClose={() => setOpen(false)} />}
      </>
    );
  }
  return (
    <>
      <button
        type="button"
        className="wallet-chip"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        <Identicon address={address} />
        <span className="wallet-chip__name">{ens ?? shortAddress(address)}</span>
        {balance.data !== undefined && native && (
          <span className="wallet-chip__balance">{formatBalance(balance.data, native)}</span>
        )}
        {tableToken && <TokenChip token={tableToken} account={address} />}
      </button>
      {open && <AccountPanel onClose={() => setOpen(false)} />}
    </>
  );
}
