import { describeError } from "@/chain/errors.ts";

/** A failed read from the chain, in words, with a way to try again. */
export function ReadError({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <p role="alert">
      {what} could not be read: {describeError(error).message}{" "}
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </p>
  );
}
