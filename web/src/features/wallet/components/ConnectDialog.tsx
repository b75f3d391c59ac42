import type { Address } from "viem";
import { useConnect, useConnection, useConnectors, type Connector } from "wagmi";
import { DEV_ACCOUNTS_ID } from "@/chain/devAccounts.ts";
import { describeError } from "@/chain/errors.ts";
import { shortAddress } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { Identicon } from "@/ui/Identicon.tsx";
import { Modal } from "@/ui/Modal.tsx";
import { useDevAccounts, useDevConnector } from "../hooks/useDevAccounts.ts";

/** Wallets found in the browser (EIP-6963), the legacy injected one only when nothing announced. */
function browserWallets(connectors: readonly Connector[]): Connector[] {
  const announced = connectors.filter((c) => c.type === "injected" && c.id !== "injected");
  if (announced.length) return announced;
  const legacy = connectors.find((c) => c.id === "injected");
  const hasEthereum = typeof window !== "undefined" && "ethereum" in window && !!window.ethereum;
  return legacy && hasEthereum ? [legacy] : [];
}

declare global {
  interface Window {
    ethereum?: unknown;
  }
}

export function DevAccountPicker({ onPicked }: { onPicked?: () => void }) {
  const connector = useDevConnector();
  const accounts = useDevAccounts(true);
  const connect = useConnect();
  const { address, connector: active } = useConnection();
  if (!connector) return null;
  const pick = async (account: Address) => {
    await connector.selectAccount(account);
    if (active?.id !== DEV_ACCOUNTS_ID)
      connect.mutate({ connector }, { onSuccess: () => onPicked?.() });
    else onPicked?.();
  };
  if (accounts.isPending) return <p className="muted">Asking the local node for its accounts…</p>;
  if (!accounts.data?.length) {
    return (
      <p className="muted">
        No local node answered. Start it with <code>npm run dev</code>.
      </p>
    );
  }
  return (
    <ul className="account-list" aria-label="Local node accounts">
      {accounts.data.slice(0, 10).map((account, i) => {
        const current = active?.id === DEV_ACCOUNTS_ID && sameAddress(account, address);
        return (
          <li key={account}>
            <button
              type="button"
              className={`account-list__item${current ? " is-current" : ""}`}
              aria-current={current ? "true" : undefined}
              onClick={() => void pick(account)}
            >
              <span className="account-list__index">#{i}</span>
              <span className="address" title={account}>
                <Identicon address={account} />
                {shortAddress(account)}
              </span>
              {current && <span className="pill">this tab</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function ConnectDialog({ onClose }: { onClose: () => void }) {
  const connectors = useConnectors();
  const connect = useConnect();
  const wallets = browserWallets(connectors);
  const walletConnect = connectors.find((c) => c.id === "walletConnect");
  const hasDev = connectors.some((c) => c.id === DEV_ACCOUNTS_ID);

  const use = (connector: Connector) => connect.mutate({ connector }, { onSuccess: onClose });

  return (
    <Modal labelledBy="connect-title" className="connect" onClose={onClose}>
      <div className="modal__head">
        <h2 id="connect-title">Connect a wallet</h2>
        <button type="button" className="button button--quiet" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>

      <h3>Wallets in this browser</h3>
      {wallets.length ? (
        <ul className="wallet-list">
          {wallets.map((c) => (
            <li key={c.uid}>
              <button
                type="button"
                className="wallet-list__item"
                onClick={() => use(c)}
                disabled={connect.isPending}
              >
                {c.icon ? (
                  <img src={c.icon} alt="" width={28} height={28} />
                ) : (
                  <span className="wallet-list__blank" />
                )}
                <span>{c.name === "Injected" ? "Browser wallet" : c.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          No wallet extension found. Install one (for example MetaMask, Rabby or Coinbase Wallet)
          and reload.
        </p>
      )}

      {walletConnect && (
        <>
          <h3>On your phone</h3>
          <button type="button" className="wallet-list__item" onClick={() => use(walletConnect)}>
            <span className="wallet-list__blank" /> WalletConnect
          </button>
        </>
      )}

      {hasDev && (
        <>
          <h3>Local node accounts</h3>
          <p className="muted small">
            For local play: the node signs for its own accounts, no extension needed. Each tab keeps
            its own account, so two tabs can be two players.
          </p>
          <DevAccountPicker onPicked={onClose} />
        </>
      )}

      {connect.error && (
        <p className="tx tx--error" role="alert">
          {describeError(connect.error).message}
        </p>
      )}
    </Modal>
  );
}
