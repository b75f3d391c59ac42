import { useEffect, useId, useState } from "react";
import { useSignMessage } from "wagmi";
import type { Address } from "viem";
import { PUSH_KIND_LABEL, PUSH_KINDS, type PushKind } from "@dicehall/core/notify/pushKinds.ts";
import { useHall, type Hall } from "@/chain/hall.ts";
import { heldKey, loadSessionKeys } from "@/chain/session.ts";
import { fetchSession } from "@/chain/sessionHooks.ts";
import {
  pushOffer,
  pushState,
  subscribePush,
  unsubscribePush,
  type PushOffer,
  type PushState,
  type SignProof,
} from "@/data/push.ts";
import { Modal } from "./Modal.tsx";

/**
 * Who proves the subscription: this browser's session key while the chain names it for the player
 * (no wallet prompt at a table), else the wallet (one signature). Read at the click, not from a
 * query that may not have answered yet.
 */
async function proofSigner(
  hall: Hall | null,
  address: Address,
  wallet: SignProof,
): Promise<{ sign: SignProof; by: "key" | "wallet" }> {
  if (hall) {
    const onChain = await fetchSession(hall, address).catch(() => null);
    const keys = loadSessionKeys(hall.chainId, address).map((k) => k.account);
    const key = onChain?.active ? heldKey(keys, onChain.key) : null;
    if (key) return { sign: (message) => key.signMessage({ message }), by: "key" };
  }
  return { sign: wallet, by: "wallet" };
}

type Loaded = { offer: PushOffer | null; state: PushState };

/**
 * "Notify me": notifications from the hall even with the tab closed (Web Push through the game
 * index), for the connected address, of the kinds the player picks. Loaded on its first opening,
 * with the push code (data/push.ts).
 */
export function PushPanel({ address, onClose }: { address: string; onClose: () => void }) {
  const titleId = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [kinds, setKinds] = useState<Set<PushKind>>(new Set(PUSH_KINDS));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const hall = useHall();
  const { mutateAsync: signMessage } = useSignMessage();

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const offer = await pushOffer();
        const state = offer ? await pushState() : { address: null, kinds: [] };
        if (!live) return;
        setLoaded({ offer, state });
        if (state.address) setKinds(new Set(state.kinds));
      } catch (error) {
        if (live) setMessage(error instanceof Error ? error.message : String(error));
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const on = loaded?.state.address === address.toLowerCase();
  const elsewhere = loaded?.state.address && !on ? loaded.state.address : null;

  const act = async (what: () => Promise<PushState>, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      const state = await what();
      setLoaded((l) => (l ? { ...l, state } : l));
      setMessage(done);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal labelledBy={titleId} className="push-panel" onClose={onClose}>
      <h2 id={titleId}>Notifications</h2>
      {!loaded && !message && <p>Asking the game index…</p>}
      {loaded && !loaded.offer && (
        <p>This hall's game index sends no notifications. Turn alerts still sound in open tabs.</p>
      )}
      {loaded?.offer && (
        <>
          <p>
            {on
              ? "This browser is notified for your account, even with the tab closed."
              : "Get a notification on this device, even with the tab closed, when:"}
          </p>
          {elsewhere && (
            <p>
              This browser is now notified for another account ({elsewhere}); turning on moves it
              here.
            </p>
          )}
          <fieldset className="push-panel__kinds">
            <legend className="sr-only">Notify me when</legend>
            {PUSH_KINDS.map((kind) => (
              <label key={kind}>
                <input
                  type="checkbox"
                  checked={kinds.has(kind)}
                  onChange={(event) => {
                    const next = new Set(kinds);
                    if (event.target.checked) next.add(kind);
                    else next.delete(kind);
                    setKinds(next);
                  }}
                />{" "}
                {PUSH_KIND_LABEL[kind]}
              </label>
            ))}
          </fieldset>
          <p className="push-panel__privacy">
            The game index keeps this browser's push address and keys, your account's address and
            the kinds you pick, and nothing else; it only ever sends what the hall's public events
            say. To show that this browser speaks for your account, your session key signs the
            request, or without one your wallet signs a short message (no transaction, no fee). Turn
            off deletes them.
          </p>
          <div className="push-panel__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={busy || kinds.size === 0}
              onClick={() =>
                void act(
                  async () => {
                    const { sign } = await proofSigner(hall, address as Address, (text) =>
                      signMessage({ message: text }),
                    );
                    return subscribePush(loaded.offer!, address as Address, [...kinds], sign);
                  },
                  on ? "Saved." : "Notifications are on.",
                )
              }
            >
              {on ? "Save" : "Turn on"}
            </button>
            {on && (
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() =>
                  void act(async () => {
                    await unsubscribePush();
                    return { address: null, kinds: [] };
                  }, "Notifications are off, and the index has deleted this browser's subscription.")
                }
              >
                Turn off
              </button>
            )}
            <button type="button" className="button button--quiet" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      )}
      {message && (
        <p role="status" className="push-panel__message">
          {message}
        </p>
      )}
    </Modal>
  );
}
