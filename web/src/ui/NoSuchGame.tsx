import { Link } from "react-router";
import { describeError } from "@/chain/errors.ts";

/**
 * The page for a game number that cannot be one (not digits, 0, or past uint256), said at once
 * before any read. `back` is where the player goes next (the tables, the history).
 */
export function NoSuchGame({
  text,
  back,
}: {
  text: string | undefined;
  back: { to: string; label: string };
}) {
  return (
    <section className="page">
      <h1>No such game</h1>
      <p className="long-text">
        {/^\d+$/.test(text ?? "")
          ? "There is no game with this number."
          : `“${text ?? ""}” is not a game number.`}{" "}
        <Link to={back.to}>{back.label}</Link>.
      </p>
    </section>
  );
}

/** A game's read that failed, in words: an unknown id is "no game", anything else says why. */
export function gameReadProblem(error: unknown): string {
  const problem = describeError(error);
  return problem.errorName === "UnknownGame"
    ? "There is no game with this number."
    : `The game could not be read: ${problem.message}`;
}
