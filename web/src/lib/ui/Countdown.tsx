import { formatCountdown, speakCountdown } from "../format.ts";
import { useNow } from "../useNow.ts";

/** Time left until `deadlineMs`; `expired` is shown once it passed. */
export function Countdown({
  deadlineMs,
  expired = "time's up",
}: {
  deadlineMs: number;
  expired?: string;
}) {
  const now = useNow();
  const left = deadlineMs - now;
  if (left <= 0) return <span className="countdown is-expired">{expired}</span>;
  return (
    <time
      className={`countdown${left < 30_000 ? " is-urgent" : ""}`}
      dateTime={new Date(deadlineMs).toISOString()}
    >
      <span aria-hidden="true">{formatCountdown(left)}</span>
      <span className="sr-only">{speakCountdown(left)}</span>
    </time>
  );
}
