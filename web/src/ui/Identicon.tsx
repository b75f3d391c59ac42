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

/** The faces waiting to be drawn, in the order their slots mounted. */
const queue: { slot: HTMLElement; size: number; seed: number }[] = [];
let draining = false;

/**
 * Draws the waiting faces a few at a time, yielding to the page between batches: a board of 50
 * players is 50 faces, and drawing them in one go is a long task on a phone, with taps and
 * scrolling waiting on it. A face whose slot left the page meanwhile is skipped.
 */
function drain(make: Jazzicon): void {
  const until = performance.now() + 4;
  while (queue.length > 0 && performance.now() < until) {
    const { slot, size, seed } = queue.shift()!;
    if (slot.isConnected) slot.replaceChildren(make(size, seed));
  }
  if (queue.length > 0) setTimeout(() => drain(make), 0);
  else draining = false;
}

function drawFace(slot: HTMLElement, size: number, seed: number): () => void {
  const item = { slot, size, seed };
  queue.push(item);
  if (!draining) {
    draining = true;
    loadJazzicon()
      .then(drain)
      .catch(() => {
        // No face (the chunk did not load): the blank circles stay.
        queue.length = 0;
        draining = false;
      });
  }
  return () => {
    const at = queue.indexOf(item);
    if (at >= 0) queue.splice(at, 1);
  };
}

/** An account's face: MetaMask's jazzicon (decorative; the name beside it says who). */
export function Identicon({ address, size = 16 }: { address: Address; size?: number }) {
  const slot = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!slot.current) return;
    return drawFace(slot.current, size, jazziconSeed(address));
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
