import { bytesToHex, type Hex } from "viem";

/** 32 fresh random bytes from the browser's CSPRNG: a practice roll's "revealed number". */
export function practiceRandom(crypto: Pick<Crypto, "getRandomValues"> = globalThis.crypto): Hex {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}
