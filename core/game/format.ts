import { formatUnits, getAddress, isAddress, parseUnits, type Address } from "viem";

/** 0x1234…abcd */
export function shortAddress(address: string): string {
  if (!isAddress(address, { strict: false })) return address;
  const a = getAddress(address);
  return `${a.slice(0, 6)}…${a.slice(-4)}`;
}

/**
 * A token amount for people: thousands separators, at most `maxFraction` decimals (more below 1,
 * to keep three significant digits), never rounding a non-zero amount down to "0": tiny amounts
 * show as "<0.0001".
 */
export function formatAmount(value: bigint, decimals: number, maxFraction = 4): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const [whole, fraction = ""] = formatUnits(abs, decimals).split(".");
  // Below 1, keep three significant digits past the leading zeros (0.00195, not 0.0019).
  const leadingZeros = whole === "0" ? (fraction.match(/^0*/)?.[0].length ?? 0) : 0;
  const digits =
    whole === "0" && leadingZeros < maxFraction
      ? Math.max(maxFraction, leadingZeros + 3)
      : maxFraction;
  let shown = fraction.slice(0, digits).replace(/0+$/, "");
  // Thousands separators by hand: BigInt's toLocaleString builds a number formatter on every call,
  // the most of a leaderboard row's time on a phone.
  const wholeText = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  if (abs > 0n && whole === "0" && shown === "") {
    return `${negative ? ">-" : "<"}0.${"0".repeat(Math.max(0, maxFraction - 1))}1`;
  }
  if (shown.length > 0) shown = `.${shown}`;
  return `${negative ? "-" : ""}${wholeText}${shown}`;
}

export interface TokenLike {
  symbol: string;
  decimals: number;
}

export function formatTokenAmount(
  value: bigint,
  token: TokenLike | undefined,
  maxFraction = 4,
): string {
  if (!token) return `${value.toString()} units`;
  return `${formatAmount(value, token.decimals, maxFraction)} ${token.symbol}`;
}

/**
 * A wallet's balance in the header and its account panel: formatTokenAmount's four decimals,
 * truncated, as the join and create forms show it, so the two never differ.
 */
export const formatBalance = (value: bigint, token: TokenLike | undefined): string =>
  formatTokenAmount(value, token);

/** Parses what a player typed as an amount; null when it is not a valid non-negative number. */
export function parseAmount(text: string, decimals: number): bigint | null {
  const clean = text.trim().replace(/,/g, "");
  if (!/^\d*\.?\d*$/.test(clean) || clean === "" || clean === ".") return null;
  const [, fraction = ""] = clean.split(".");
  if (fraction.length > decimals) return null;
  try {
    return parseUnits(clean, decimals);
  } catch {
    return null;
  }
}

/** Time left, short: "0:42", "4:05", "1 h 02 min", "3 d 4 h". Never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** The same, for screen readers: "4 minutes 5 seconds". */
export function speakCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const parts: string[] = [];
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  let rest = total;
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 && parts.length < 2) parts.push(`${n} ${name}${n === 1 ? "" : "s"}`);
  }
  return parts.length ? parts.join(" ") : "0 seconds";
}

/** A setting's length: "45 s", "5 min", "1 h 30 min", "7 days". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds % 86_400 === 0) {
    const d = seconds / 86_400;
    return `${d} day${d === 1 ? "" : "s"}`;
  }
  const h = Math.floor(seconds / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  const parts = [h ? `${h} h` : "", m ? `${m} min` : "", s ? `${s} s` : ""].filter(Boolean);
  return parts.join(" ");
}

/** A chain timestamp (seconds) as local clock time, with the date when not today. */
export function formatTimestamp(seconds: bigint | number, now: Date = new Date()): string {
  const date = new Date(Number(seconds) * 1000);
  const time = date.toLocaleTimeString("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  if (date.toDateString() === now.toDateString()) return time;
  return `${date.toLocaleDateString("en-GB", { day: "numeric", month: "short" })} ${time}`;
}

export function ordinal(n: number): string {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}

export function asAddress(text: string): Address | null {
  const clean = text.trim();
  return isAddress(clean, { strict: false }) ? getAddress(clean) : null;
}
