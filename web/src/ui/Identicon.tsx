import { useEffect, useRef } from "react";
import type { Address } from "viem";

type Jazzicon = (diameter: number, seed: number) => HTMLElement;
let loading: Promise<Jazzicon> | undefined;

/** Jazzicon loads on the first face shown, in a chunk of its own, not with the first page. */
function loadJazzicon(): Promise<Jazzicon> {
  loading ??= import("@metamask/jazzicon").then((m) => m.default as Jazzicon);
  return loading;
}

/** MetaMask's seed for an account's jazzicon, so a player sees the face their wallet shows. */
export const jazziconSeed = (address: Address): number => parseInt(address.slice(2, 10), 16);

/** An account's face: MetaMask's jazzicon (decorative; the name beside it says who). */
export function Identicon({ address, size = 16 }: { address: Address; size?: number }) {
  const slot = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let current = true;
    loadJazzicon()
      .then((make) => {
        if (current && slot.current)
          slot.current.replaceChildren(make(size, jazziconSeed(address)));
      })
      .catch(() => {
        // No face (the chunk did not load): the blank circle stays.
      });
    return () => {
      current = false;
    };
  }, [address, size]);
  return (
    <span
      ref={slot}
      className="identicon"
      aria-hidden="true"
      style={{ width: size, height: size }}
    />
  );
}
