import { useId, useState } from "react";
import { Link, useInRouterContext } from "react-router";
import type { Address as Addr } from "viem";
import { useConnection } from "wagmi";
import { useEnsAvatar, useEnsName } from "@/chain/ens.ts";
import { shortAddress } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { Identicon } from "./Identicon.tsx";

const FACE = 16;

/** Where an account's own page is: its games and scores. */
export const playerPath = (address: Addr): string => `/players/${address}`;

/**
 * An account as players see it: its face (ENS avatar, else its jazzicon), then "You", its ENS
 * name, or 0x1234…abcd, a link to the player's page. The face is a button that shows the full
 * address, with a copy button and the same link. `faceOnly` leaves the name out, for a line that
 * names the player in its own words (the turn log).
 */
export function AddressName({
  address,
  you = true,
  faceOnly = false,
}: {
  address: Addr;
  you?: boolean;
  faceOnly?: boolean;
}) {
  const routed = useInRouterContext();
  const { address: me } = useConnection();
  const ens = useEnsName(address);
  const avatar = useEnsAvatar(ens);
  const isMe = you && sameAddress(address, me);
  const text = isMe ? "You" : (ens ?? shortAddress(address));
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const fullId = useId();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      // No clipboard here (an insecure page, or refused): the address is on screen to select.
    }
  };

  return (
    <span className={`address${faceOnly ? " address--face" : ""}`} title={address}>
      <button
        type="button"
        className="address__face"
        aria-expanded={open}
        aria-controls={open ? fullId : undefined}
        aria-label={isMe ? "Your full address" : `Full address of ${text}`}
        onClick={() => {
          setOpen((o) => !o);
          setCopied(false);
        }}
      >
        {avatar ? (
          <img src={avatar} alt="" width={FACE} height={FACE} className="address__avatar" />
        ) : (
          <Identicon address={address} size={FACE} />
        )}
      </button>
      {faceOnly ? null : routed ? (
        <Link className="address__name" to={playerPath(address)}>
          {text}
        </Link>
      ) : (
        <span className="address__name">{text}</span>
      )}
      {open && (
        <span className="address__full" id={fullId}>
          <code>{address}</code>{" "}
          <button type="button" className="button button--small" onClick={() => void copy()}>
            {copied ? "Copied" : "Copy"}
          </button>
          {routed && (
            <Link className="address__page" to={playerPath(address)}>
              Player page
            </Link>
          )}
        </span>
      )}
    </span>
  );
}
