import { Link } from "react-router";
import { describeError } from "@/chain/errors.ts";
import { useIsPageTemplate } from "./pageTemplate.ts";

/**
 * The page for a game number that cannot be one (not digits, 0, or past uint256), said at once
 * before any read. `back` is where the player goes next (the tables, the history).
 */
export function NoSuchGame({
  text,
  back,
  reading,
}: {
  text: string | undefined;
  back: { to: string; label: string };
  /** The page's title while the build's template stands for every game (ui/pageTemplate.ts). */
  reading: string;
}) {
  const template = useIsPageTemplate();
  if (template)
    return (
      <section className="page">
        <h1>{reading}</h1>
        <p className="loading">Reading the game from the chain…</p>
      </section>
    );
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
