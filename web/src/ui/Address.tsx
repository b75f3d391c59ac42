import type { Address as Addr } from "viem";
import { useConnection } from "wagmi";
import { useEnsName } from "@/chain/ens.ts";
import { shortAddress } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";

/** An account as players see it: "you", its ENS name, or 0x1234…abcd (full address on hover). */
export function AddressName({ address, you = true }: { address: Addr; you?: boolean }) {
  const { address: me } = useConnection();
  const ens = useEnsName(address);
  const isMe = you && sameAddress(address, me);
  const text = isMe ? "You" : (ens ?? shortAddress(address));
  return (
    <span className="address" title={address}>
      {text}
    </span>
  );
}
