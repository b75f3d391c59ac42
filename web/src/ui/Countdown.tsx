import type { ReactNode } from "react";
import { formatCountdown, speakCountdown } from "@dicehall/core/game/format.ts";
import { URGENT_MS } from "@dicehall/core/game/turnAlert.ts";
import { useChainNow } from "./useNow.ts";

interface CountdownProps {
  /** A contract deadline: a block timestamp, in seconds. */
  deadline: number | bigint;
  /** Shown once the deadline has passed. */
  expired?: string;
  /** Words before the time left ("move due in "), shown only while time is left. */
  prefix?: ReactNode;
}

/** Time left until a contract deadline, on the chain's clock; urgent in its last 30 seconds. */
export function Countdown(props: CountdownProps) {
  return <CountdownText {...props} nowMs={useChainNow()} />;
}

/** The same, at a given chain time (ms): what the page around it decides with. */
export function CountdownText({
  deadline,
  expired = "time's up",
  prefix,
  nowMs,
}: CountdownProps & { nowMs: number }) {
  const deadlineMs = Number(deadline) * 1000;
  const left = deadlineMs - nowMs;
  if (left <= 0) return <span className="countdown is-expired">{expired}</span>;
  const urgent = left <= URGENT_MS;
  return (
    <>
      {prefix}
      <time
        className={`countdown${urgent ? " is-urgent" : ""}`}
        data-urgent={urgent ? "true" : undefined}
        dateTime={new Date(deadlineMs).toISOString()}
      >
        <span aria-hidden="true">{formatCountdown(left)}</span>
        <span className="sr-only">
          {speakCountdown(left)}
          {urgent ? ", hurry" : ""}
        </span>
      </time>
    </>
  );
}
